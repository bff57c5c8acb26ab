package rankop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

// keepLast runs LastByArrival and LastByTime over a batch whose rows'
// partitions are r.pids, with the output of a run row by row, but a
// batch at a time: each row a partition takes emits -U of the row it had
// and +U of itself (+I for a partition's first row), so of the batch's
// rows only the last one each partition takes is stored. The
// output rows are refs (a batch row -(row+1), or a store id) and kinds;
// the batch-wide form and the typed op column took the deduplication
// from 8.1M to 10.2M rows per CPU-second (BenchmarkDeduplicateLastByTime).
func (r *Rank) keepLast(rec arrow.RecordBatch, times []arrow.Timestamp) error {
	byTime := r.cfg.Mode == LastByTime
	refs, kinds := r.outRefs[:0], r.outKinds[:0]
	touched, evicted := r.touched[:0], r.evicted[:0]
	var ts int64
	for i, pid := range r.pids {
		ref := int32(-(i + 1))
		if byTime {
			ts = int64(times[i])
		}
		k := r.last.at(pid)
		if !k.set {
			*k = lastRow{ts: ts, id: ref, set: true}
			touched = append(touched, pid)
			refs, kinds = append(refs, ref), append(kinds, kindInsert)
			continue
		}
		if byTime && ts < k.ts {
			continue
		}
		if k.id >= 0 { // the partition's first new row of the batch
			touched = append(touched, pid)
			evicted = append(evicted, k.id)
		}
		refs = append(refs, k.id, ref)
		kinds = append(kinds, kindUpdateBefore, kindUpdateAfter)
		k.ts, k.id = ts, ref
	}
	r.outRefs, r.outKinds, r.touched, r.evicted = refs, kinds, touched, evicted
	r.seq += uint64(len(r.pids))

	cols := r.keptColumns(rec)
	if cols != rec {
		defer cols.Release()
	}
	var err error
	if len(refs) > 0 {
		err = r.sendKinds(cols)
	}
	for _, id := range evicted {
		r.store.Remove(id)
	}
	r.evicted = r.evicted[:0]
	if err != nil {
		return err
	}
	return r.keepTouched(cols)
}

// keepTouched stores the row each partition of the batch ends with (still
// a batch row) and gives it its store id.
func (r *Rank) keepTouched(cols arrow.RecordBatch) error {
	stay := r.stay[:0]
	for _, pid := range r.touched {
		stay = append(stay, -r.last.at(pid).id-1)
	}
	r.stay = stay
	ids, err := r.store.Add(cols, stay, r.enterID[:0])
	if err != nil {
		return err
	}
	r.enterID = ids
	for j, pid := range r.touched {
		r.last.at(pid).id = ids[j]
	}
	return r.store.Compact()
}

// sendKinds emits the rows outRefs with the kinds outKinds; batch is the
// current batch's kept columns.
func (r *Rank) sendKinds(batch arrow.RecordBatch) error {
	rows, err := r.store.GatherWith(batch, r.outRefs)
	if err != nil {
		return err
	}
	defer rows.Release()
	n := len(r.outRefs)
	cols := make([]arrow.Array, 0, r.schema.NumFields())
	cols = append(cols, r.opColumn(r.outKinds))
	for _, c := range rows.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	r.stats.ResultRows += int64(n)
	out := array.NewRecordBatch(r.schema, cols, int64(n))
	defer out.Release()
	return r.out.ProcessBatch(pipeline.Batch{Record: out})
}

// The row kinds keepLast emits, as indexes into opText.
const (
	kindInsert uint8 = iota
	kindUpdateBefore
	kindUpdateAfter
)

// opWords is the text of each kind (windowop.RowKind), its two bytes as
// one little-endian word, written at once.
var opWords = [...]uint16{'+' | 'I'<<8, '-' | 'U'<<8, '+' | 'U'<<8}

// opColumn builds the op column of kinds: its data a word a row, its
// offsets (0, 2, 4, ...: every kind is two bytes) a buffer shared by
// every batch, grown as needed, so a batch allocates none (32 KB a batch
// of 4096 rows). Both halved the op column's time.
func (r *Rank) opColumn(kinds []uint8) arrow.Array {
	n := len(kinds)
	if r.opOffsets == nil || r.opOffsets.Len() < (n+1)*4 {
		if r.opOffsets != nil {
			r.opOffsets.Release()
		}
		r.opOffsets = memory.NewResizableBuffer(r.mem)
		r.opOffsets.Resize((n + 1) * 4)
		offs := arrow.Int32Traits.CastFromBytes(r.opOffsets.Bytes())[:n+1]
		for i := range offs {
			offs[i] = int32(2 * i)
		}
	}
	data := memory.NewResizableBuffer(r.mem)
	data.Resize(2 * n)
	d := arrow.Uint16Traits.CastFromBytes(data.Bytes())[:n]
	for i, k := range kinds {
		d[i] = opWords[k]
	}
	ad := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{nil, r.opOffsets, data}, nil, 0, 0)
	data.Release()
	defer ad.Release()
	return array.NewStringData(ad)
}

// lastRow is a deduplication's partition: its kept row's time (by time)
// and store id, or -(row+1) while a row of the current batch; set once
// it has a row. 16 bytes without a pointer, where a partition and its
// kept row were 88 with two (Nexmark q18's 5M partitions: 440 MB).
type lastRow struct {
	ts  int64
	id  int32
	set bool
}

// keepsLast reports whether the rank keeps its partitions as lastRows.
func (c Config) keepsLast() bool { return c.Mode == LastByTime || c.Mode == LastByArrival }
