package lateral

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/pipeline"
)

// Lateral is the running stage of a Spec. Per batch it builds, a column
// at a time, the take-indexes of the output rows: parents (the input row
// each comes from) and src (the generated row, or -1 for a LEFT JOIN's
// padding); the input's columns are then taken by parents and the
// generated ones by src, so no row is built one at a time.
type Lateral struct {
	spec       Spec
	mem        memory.Allocator
	next       pipeline.Operator
	watermarks pipeline.WatermarkGate
	// per-batch index buffers, kept across batches
	parents, src, ords []int32
	pos, idx           []int32 // the rows of src that are not -1, and their values
	fieldSrc           []int32 // src with -1 where a ROW element is NULL
	wms                []int64
}

// New returns the stage.
func New(spec Spec, mem memory.Allocator, next pipeline.Operator) (*Lateral, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	return &Lateral{spec: spec, mem: mem, next: next}, nil
}

// ProcessBatch joins each row with its generated rows, in row order: the
// rows of input row i come before those of row i+1, so the output's
// order does not depend on how the input was cut into batches.
func (l *Lateral) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	args := make([]arrow.Array, 0, len(l.spec.Args))
	defer func() { expr.ReleaseAll(args) }()
	for _, x := range l.spec.Args {
		a, err := x.Eval(rec, l.mem)
		if err != nil {
			return err
		}
		args = append(args, a)
	}
	gen := make([]arrow.Array, 0, l.spec.Generated())
	defer func() { expr.ReleaseAll(gen) }()
	var err error
	if l.spec.Function != nil {
		gen, err = l.function(args, n, gen)
	} else {
		gen, err = l.unnest(args[0], n, gen)
	}
	if err != nil || len(l.parents) == 0 {
		return err
	}
	m := len(l.parents)
	parent, err := expr.TakeRecord(rec, l.parents, l.mem)
	if err != nil {
		return err
	}
	defer parent.Release()
	cols := make([]arrow.Array, 0, l.spec.Schema.NumFields())
	cols = append(append(cols, parent.Columns()...), gen...)
	out := array.NewRecordBatch(l.spec.Schema, cols, int64(m))
	defer out.Release()
	var wms []int64
	if b.Watermarks != nil {
		l.wms = l.wms[:0]
		for _, p := range l.parents {
			l.wms = append(l.wms, b.Watermarks[p])
		}
		wms = l.wms
	}
	return l.next.ProcessBatch(pipeline.Batch{Record: out, Watermarks: wms})
}

// unnest builds the indexes of UNNEST over the n values of a (a list or
// a map) and appends the generated columns to gen.
func (l *Lateral) unnest(a arrow.Array, n int, gen []arrow.Array) ([]arrow.Array, error) {
	list, ok := a.(array.ListLike)
	if !ok {
		return gen, fmt.Errorf("lateral: UNNEST of %s", a.DataType())
	}
	l.parents, l.src, l.ords = l.parents[:0], l.src[:0], l.ords[:0]
	values := list.ListValues()
	multiset := format.IsMultiset(a.DataType())
	var counts32 []int32 // a MULTISET's entry counts, by the type they have
	var counts64 []int64
	if multiset {
		switch c := values.(*array.Struct).Field(1).(type) {
		case *array.Int32:
			counts32 = c.Int32Values()
		case *array.Int64:
			counts64 = c.Int64Values()
		default:
			return gen, fmt.Errorf("lateral: MULTISET counts of %s", c.DataType())
		}
	}
	for i := 0; i < n; i++ {
		before := len(l.parents)
		if list.IsValid(i) {
			start, end := list.ValueOffsets(i)
			ord := int32(0)
			for k := start; k < end; k++ {
				times := int64(1)
				switch {
				case counts32 != nil:
					times = int64(counts32[k])
				case counts64 != nil:
					times = counts64[k]
				}
				for ; times > 0; times-- {
					ord++
					l.parents = append(l.parents, int32(i))
					l.src = append(l.src, int32(k))
					l.ords = append(l.ords, ord)
				}
			}
		}
		if l.spec.Left && len(l.parents) == before {
			l.parents = append(l.parents, int32(i))
			l.src = append(l.src, -1)
			l.ords = append(l.ords, 0)
		}
	}
	if len(l.parents) == 0 {
		return gen, nil
	}
	elems := values // a map's entries: their key and value
	if multiset {
		elems = values.(*array.Struct).Field(0) // the elements are the keys
	}
	var err error
	if st, ok := elems.(*array.Struct); ok {
		src := l.src
		if st.NullN() > 0 {
			// a NULL ROW element gives NULL fields
			l.fieldSrc = append(l.fieldSrc[:0], l.src...)
			for j, k := range l.fieldSrc {
				if k >= 0 && st.IsNull(int(k)) {
					l.fieldSrc[j] = -1
				}
			}
			src = l.fieldSrc
		}
		for f := 0; f < st.NumField(); f++ {
			if gen, err = l.gather(st.Field(f), src, gen); err != nil {
				return gen, err
			}
		}
	} else if gen, err = l.gather(elems, l.src, gen); err != nil {
		return gen, err
	}
	if l.spec.Ordinality {
		gen = append(gen, l.ordinality())
	}
	return gen, nil
}

// ordinality is the ORDINALITY column: each element's position from 1,
// NULL on a LEFT JOIN's padding.
func (l *Lateral) ordinality() arrow.Array {
	m := len(l.ords)
	vb, vals := expr.NewValues[int32](l.mem, m)
	copy(vals, l.ords)
	var validity *memory.Buffer
	nulls := 0
	for _, o := range l.ords {
		if o == 0 {
			nulls++
		}
	}
	if nulls > 0 {
		var bits []byte
		validity, bits = expr.NewBits(l.mem, m)
		for j, o := range l.ords {
			if o != 0 {
				bits[j>>3] |= 1 << (j & 7)
			}
		}
	}
	return expr.NewArray(arrow.PrimitiveTypes.Int32, m, validity, nulls, vb)
}

// gather appends the rows src of a (NULL where src is -1) to gen.
func (l *Lateral) gather(a arrow.Array, src []int32, gen []arrow.Array) ([]arrow.Array, error) {
	l.pos, l.idx = l.pos[:0], l.idx[:0]
	for j, k := range src {
		if k >= 0 {
			l.pos = append(l.pos, int32(j))
			l.idx = append(l.idx, k)
		}
	}
	if len(l.idx) == len(src) {
		c, err := expr.Take(a, src, l.mem)
		if err != nil {
			return gen, err
		}
		return append(gen, c), nil
	}
	sub, err := expr.Take(a, l.idx, l.mem)
	if err != nil {
		return gen, err
	}
	defer sub.Release()
	c, err := expr.Scatter(sub, l.pos, len(src), l.mem)
	if err != nil {
		return gen, err
	}
	return append(gen, c), nil
}

// function calls the table function on the batch's arguments, checks
// what it gave, and appends its columns to gen (padded for a LEFT JOIN).
func (l *Lateral) function(args []arrow.Array, n int, gen []arrow.Array) ([]arrow.Array, error) {
	rec, rows, err := l.spec.Function(l.mem, args)
	if err != nil {
		return gen, err
	}
	if rec == nil {
		return gen, fmt.Errorf("function %s returned no record batch", l.spec.FunctionName)
	}
	defer rec.Release()
	if err := l.checkResult(rec, rows, n); err != nil {
		return gen, err
	}
	l.parents, l.src = l.parents[:0], l.src[:0]
	k := 0
	for i := 0; i < n; i++ {
		before := len(l.parents)
		for ; k < len(rows) && rows[k] == i; k++ {
			l.parents = append(l.parents, int32(i))
			l.src = append(l.src, int32(k))
		}
		if l.spec.Left && len(l.parents) == before {
			l.parents = append(l.parents, int32(i))
			l.src = append(l.src, -1)
		}
	}
	if len(l.parents) == len(rows) {
		// no padding: the function's columns are the output's as they are
		for _, c := range rec.Columns() {
			c.Retain()
			gen = append(gen, c)
		}
		return gen, nil
	}
	for _, c := range rec.Columns() {
		if gen, err = l.gather(c, l.src, gen); err != nil {
			return gen, err
		}
	}
	return gen, nil
}

// checkResult refuses a table function's result that does not have its
// declared columns, or whose rows do not name argument rows in order.
func (l *Lateral) checkResult(rec arrow.RecordBatch, rows []int, n int) error {
	name, in := l.spec.FunctionName, l.spec.Input.NumFields()
	if int(rec.NumCols()) != l.spec.Generated() {
		return fmt.Errorf("function %s returned %d columns, not its declared %d", name, rec.NumCols(), l.spec.Generated())
	}
	for c := 0; c < int(rec.NumCols()); c++ {
		if want := l.spec.Schema.Field(in + c).Type; !arrow.TypeEqual(rec.Column(c).DataType(), want) {
			return fmt.Errorf("function %s returned %s for column %d, not its declared %s", name, rec.Column(c).DataType(), c+1, want)
		}
	}
	if len(rows) != int(rec.NumRows()) {
		return fmt.Errorf("function %s returned %d rows and %d argument rows for them", name, rec.NumRows(), len(rows))
	}
	prev := 0
	for _, r := range rows {
		if r < prev || r >= n {
			return fmt.Errorf("function %s gave a row for argument row %d, out of order or beyond the batch's %d rows", name, r, n)
		}
		prev = r
	}
	return nil
}

func (l *Lateral) ProcessWatermark(wm int64) error {
	if !l.watermarks.Advance(wm) {
		return nil
	}
	return l.next.ProcessWatermark(wm)
}

func (l *Lateral) ProcessEnd() error { return l.next.ProcessEnd() }

// Close releases nothing: the stage holds no Arrow memory between calls.
func (l *Lateral) Close() {}

var _ pipeline.Operator = (*Lateral)(nil)
