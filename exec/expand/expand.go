package expand

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
)

// Spec is one Expand step. Its output is the input's columns, then one
// copy of each key column (NULL in the sets that do not group by it), then
// the BIGINT constant columns of Consts.
type Spec struct {
	Keys []int // input indexes of the grouping keys
	// Sets lists, per grouping set, which of Keys it groups by.
	Sets [][]bool
	// Consts[s][c] is constant column c's value in set s: the grouping id
	// first, then one value per GROUPING / GROUPING_ID call.
	Consts [][]int64
	Schema *arrow.Schema // input fields, key copies, constant columns
}

// Check verifies the spec's shape against its schema.
func (s Spec) Check() error {
	if len(s.Sets) == 0 || len(s.Consts) != len(s.Sets) {
		return fmt.Errorf("expand: %d grouping sets with %d constant rows", len(s.Sets), len(s.Consts))
	}
	nc := len(s.Consts[0])
	for i := range s.Sets {
		if len(s.Sets[i]) != len(s.Keys) || len(s.Consts[i]) != nc {
			return fmt.Errorf("expand: grouping set %d does not match the keys", i)
		}
	}
	return nil
}

// InputFields is the number of input columns the output starts with.
func (s Spec) InputFields() int {
	return s.Schema.NumFields() - len(s.Keys) - len(s.Consts[0])
}

// Expand is the running stage of a Spec. It keeps no state: a checkpoint
// holds the aggregation after it.
type Expand struct {
	spec       Spec
	mem        memory.Allocator
	next       pipeline.Operator
	watermarks pipeline.WatermarkGate
	idx        []int32 // row i of the input at i*sets+s
	wms        []int64
	masks      [][]byte // per key: the output rows whose set groups by it
	maskRows   int      // the rows masks cover
}

// New returns the stage.
func New(spec Spec, mem memory.Allocator, next pipeline.Operator) (*Expand, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	return &Expand{spec: spec, mem: mem, next: next}, nil
}

// ProcessBatch replicates each row once per set, in row order: row i's
// copies are rows i*sets .. i*sets+sets-1, under row i's watermark, so
// every copy is judged late or on time as the row itself, and the order
// of the output does not depend on how the input was cut into batches.
func (e *Expand) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n, sets := int(rec.NumRows()), len(e.spec.Sets)
	if n == 0 {
		return nil
	}
	m := n * sets
	e.idx = e.idx[:0]
	for i := 0; i < n; i++ {
		for s := 0; s < sets; s++ {
			e.idx = append(e.idx, int32(i))
		}
	}
	taken, err := expr.TakeRecord(rec, e.idx, e.mem)
	if err != nil {
		return err
	}
	defer taken.Release()
	cols := make([]arrow.Array, 0, e.spec.Schema.NumFields())
	cols = append(cols, taken.Columns()...)
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	e.buildMasks(m)
	for k, in := range e.spec.Keys {
		a := e.masked(taken.Column(in), e.masks[k], m)
		owned = append(owned, a)
		cols = append(cols, a)
	}
	for c := range e.spec.Consts[0] {
		a := e.constant(c, m)
		owned = append(owned, a)
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(e.spec.Schema, cols, int64(m))
	defer out.Release()
	var wms []int64
	if b.Watermarks != nil {
		e.wms = e.wms[:0]
		for _, wm := range b.Watermarks {
			for s := 0; s < sets; s++ {
				e.wms = append(e.wms, wm)
			}
		}
		wms = e.wms
	}
	return e.next.ProcessBatch(pipeline.Batch{Record: out, Watermarks: wms})
}

// buildMasks makes, when a batch is longer than any before, each key's
// bitmap of the output rows whose set groups by it (the sets' pattern
// repeated); shorter batches use a prefix.
func (e *Expand) buildMasks(m int) {
	if e.maskRows >= m {
		return
	}
	sets := len(e.spec.Sets)
	e.masks = make([][]byte, len(e.spec.Keys))
	for k := range e.spec.Keys {
		bm := make([]byte, bitutil.BytesForBits(int64(m)))
		for r := 0; r < m; r++ {
			if e.spec.Sets[r%sets][k] {
				bitutil.SetBit(bm, r)
			}
		}
		e.masks[k] = bm
	}
	e.maskRows = m
}

// masked is a with its validity ANDed with mask: the values are shared,
// only the validity bitmap is new.
func (e *Expand) masked(a arrow.Array, mask []byte, m int) arrow.Array {
	d := a.Data()
	off := d.Offset()
	validity := memory.NewResizableBuffer(e.mem)
	validity.Resize(int(bitutil.BytesForBits(int64(off + m))))
	bm := validity.Bytes()
	if src := d.Buffers()[0]; src != nil && a.NullN() > 0 {
		bitutil.BitmapAnd(src.Bytes(), mask, int64(off), 0, bm, int64(off), int64(m))
	} else {
		bitutil.CopyBitmap(mask, 0, m, bm, off)
	}
	nulls := m - bitutil.CountSetBits(bm, off, m)
	bufs := append([]*memory.Buffer{validity}, d.Buffers()[1:]...)
	nd := array.NewData(d.DataType(), m, bufs, d.Children(), nulls, off)
	validity.Release()
	defer nd.Release()
	return array.MakeFromData(nd)
}

// constant is constant column c: each set's value, the pattern of the
// sets written once and then copied in doubling runs.
func (e *Expand) constant(c, m int) arrow.Array {
	buf := memory.NewResizableBuffer(e.mem)
	buf.Resize(m * 8)
	vals := arrow.Int64Traits.CastFromBytes(buf.Bytes())[:m]
	sets := len(e.spec.Sets)
	for s := 0; s < sets && s < m; s++ {
		vals[s] = e.spec.Consts[s][c]
	}
	for done := sets; done < m; done *= 2 {
		copy(vals[done:], vals[:done])
	}
	d := array.NewData(arrow.PrimitiveTypes.Int64, m, []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release()
	defer d.Release()
	return array.MakeFromData(d)
}

func (e *Expand) ProcessWatermark(wm int64) error {
	if !e.watermarks.Advance(wm) {
		return nil
	}
	return e.next.ProcessWatermark(wm)
}

func (e *Expand) ProcessEnd() error { return e.next.ProcessEnd() }

// Close releases nothing: the stage holds no Arrow memory between calls.
func (e *Expand) Close() {}

var _ pipeline.Operator = (*Expand)(nil)
