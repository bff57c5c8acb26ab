package rowstore

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/wsql/wsql/checkpoint"
)

// Save writes the kept rows under their ids: the id table (which ids are
// free, in the order they are reused) and the rows, in id order, as one
// Arrow IPC stream.
func (s *Store) Save(e *checkpoint.Encoder) error {
	ids := s.keptIDs()
	e.Uint(uint64(s.where.len()))
	checkpoint.Ints(e, s.free)
	rows, err := s.Gather(ids)
	if err != nil {
		return err
	}
	defer rows.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(s.schema), ipc.WithAllocator(s.mem))
	if err := w.Write(rows); err != nil {
		return err
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
	var rows arrow.RecordBatch
	if r.Next() {
		rows = r.RecordBatch()
		rows.Retain()
	}
	if err := r.Err(); err != nil || rows == nil || !rows.Schema().Equal(s.schema) {
		if rows != nil {
			rows.Release()
		}
		d.Fail("kept rows: %v", err)
		return d.Err()
	}
	s.where.reset(n)
	isFree := make([]bool, n)
	for _, id := range free {
		if id < 0 || int(id) >= n || isFree[id] {
			rows.Release()
			d.Fail("free row id %d", id)
			return d.Err()
		}
		isFree[id] = true
	}
	if int(rows.NumRows()) != n-len(free) {
		rows.Release()
		d.Fail("%d kept rows for %d ids", rows.NumRows(), n-len(free))
		return d.Err()
	}
	r0 := int32(0)
	for id := range int32(n) {
		if !isFree[id] {
			s.where.set(id, place{chunk: 0, row: r0})
			r0++
		}
	}
	s.free = free
	s.chunks, s.live = []arrow.RecordBatch{rows}, []int{int(rows.NumRows())}
	s.kept, s.held = int(rows.NumRows()), int(rows.NumRows())
	if s.kept == 0 {
		rows.Release()
		s.chunks, s.live = nil, nil
	}
	return nil
}
