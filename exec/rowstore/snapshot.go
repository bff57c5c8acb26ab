package rowstore

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/wsql/wsql/checkpoint"
)

// Save writes the kept rows under their ids: the id table (which ids are
// free, in the order they are reused) and the rows, in id order, as one
// Arrow IPC stream of batches of compactRows rows, gathered one at a time
// (spilled rows are not all brought back into memory at once).
func (s *Store) Save(e *checkpoint.Encoder) error {
	ids := s.keptIDs()
	e.Uint(uint64(s.where.len()))
	checkpoint.Ints(e, s.free)
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(s.schema), ipc.WithAllocator(s.mem))
	for from := 0; from == 0 || from < len(ids); from += compactRows {
		rows, err := s.Gather(ids[from:min(from+compactRows, len(ids))])
		if err != nil {
			w.Close()
			return err
		}
		err = w.Write(rows)
		rows.Release()
		if err != nil {
			w.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	e.Bytes(buf.Bytes())
	return nil
}

// Load reads what Save wrote into an empty store of the same schema.
func (s *Store) Load(d *checkpoint.Decoder) error {
	n := d.Len(1)
	free := checkpoint.ReadInts[int32](d)
	data := d.Bytes()
	if d.Err() != nil {
		return d.Err()
	}
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithSchema(s.schema), ipc.WithAllocator(s.mem))
	if err != nil {
		d.Fail("kept rows: %v", err)
		return d.Err()
	}
	defer r.Release()
	var batches []arrow.RecordBatch
	release := func() {
		for _, b := range batches {
			b.Release()
		}
	}
	rowsRead := 0
	for r.Next() {
		b := r.RecordBatch()
		if !b.Schema().Equal(s.schema) {
			release()
			d.Fail("kept rows of another schema")
			return d.Err()
		}
		b.Retain()
		batches = append(batches, b)
		rowsRead += int(b.NumRows())
	}
	if err := r.Err(); err != nil || len(batches) == 0 {
		release()
		d.Fail("kept rows: %v", err)
		return d.Err()
	}
	s.where.reset(n)
	isFree := make([]bool, n)
	for _, id := range free {
		if id < 0 || int(id) >= n || isFree[id] {
			release()
			d.Fail("free row id %d", id)
			return d.Err()
		}
		isFree[id] = true
	}
	if rowsRead != n-len(free) {
		release()
		d.Fail("%d kept rows for %d ids", rowsRead, n-len(free))
		return d.Err()
	}
	s.free = free
	s.kept = rowsRead
	id := int32(0)
	for k, b := range batches {
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		c := s.appendChunk(b, int(b.NumRows()))
		for r := range int32(b.NumRows()) {
			for isFree[id] {
				id++
			}
			s.where.set(id, place{chunk: c, row: r})
			id++
		}
		if err := s.account(c); err != nil {
			for _, b := range batches[k+1:] {
				b.Release()
			}
			d.Fail("kept rows: %v", err)
			return d.Err()
		}
	}
	return nil
}
