package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A ROWS frame of N PRECEDING takes exactly one row out for each row
// that comes once the frame is full. SUM, AVG and COUNT then have a
// sliding form: a round's results are computed in one pass over its
// rows, adding the new row's value, subtracting the leaving row's and
// reading the sum off, with the values read from the columns' buffers.
// The general path crosses the accumulators' interface per segment of
// distinct partitions and retracts by range or by row, which was a
// third of BenchmarkOverRows100's CPU.
//
// The slots' state is the accumulators' own (retractSum, retractCount),
// so checkpoints, releases and the general path see the same sums. Each
// slot gets the same additions and subtractions in the same order as the
// general path gives it (add the new row, take the leaving row out), so
// floating-point results are identical too.

// OverRow names a row of one of the frame records an OVER aggregation keeps:
// record Rec (an index into the records passed along), row Row. Rec < 0
// names no row.
type OverRow struct{ Rec, Row int32 }

// slider computes an aggregate's results for a round of a ROWS frame.
type slider interface {
	// slide folds each row of col into slots[r], takes leaving[r] (a row
	// of column input of recs) out of it, and returns the results in row
	// order.
	slide(col arrow.Array, input int, slots []int32, leaving []OverRow, recs []arrow.RecordBatch, mem memory.Allocator) arrow.Array
}

// sliderOf is the sliding form of accumulator acc of spec, or nil.
func sliderOf(spec AggSpec, acc accumulator) slider {
	if spec.Filtered || spec.Distinct || len(spec.MoreInputs) > 0 {
		return nil
	}
	switch a := acc.(type) {
	case *retractCount:
		return slideCount{a}
	case *retractSum:
		switch a.dt.ID() {
		case arrow.INT8:
			return slideSum[int8, int64]{a}
		case arrow.INT16:
			return slideSum[int16, int64]{a}
		case arrow.INT32:
			return slideSum[int32, int64]{a}
		case arrow.INT64:
			return slideSum[int64, int64]{a}
		case arrow.FLOAT32:
			return slideSum[float32, float64]{a}
		case arrow.FLOAT64:
			return slideSum[float64, float64]{a}
		}
	}
	return nil
}

// SlideRows makes the aggregates that have a sliding form (SUM, AVG and
// COUNT without FILTER or DISTINCT, in a bounded frame) computed by
// Slide; Update, Retract and AppendResults leave them out from then on.
// It reports whether any aggregate is left for those. Only a ROWS frame
// may slide: it takes one row out per row.
func (o *OverAggs) SlideRows() (general bool) {
	if o.retract == nil {
		return true
	}
	o.slides = make([]slider, len(o.accs))
	o.general = o.general[:0]
	o.genAccs, o.genSpecs = nil, nil
	for i, a := range o.accs {
		if o.slides[i] = sliderOf(o.specs[i], a); o.slides[i] == nil {
			o.general = append(o.general, i)
			o.genAccs, o.genSpecs = append(o.genAccs, a), append(o.genSpecs, o.specs[i])
		}
	}
	o.frameAt = make([]int, o.numCols)
	for i := range o.frameAt {
		o.frameAt[i] = i
	}
	if len(o.general) > 0 {
		return true
	}
	o.frameCol = []int{}
	for c := range o.frameAt {
		o.frameAt[c] = -1
		for i, s := range o.slides {
			if s != nil && o.specs[i].Kind != CountStar && o.specs[i].Input == c {
				o.frameAt[c] = len(o.frameCol)
				o.frameCol = append(o.frameCol, c)
				break
			}
		}
	}
	return false
}

// FrameColumns are the input columns a frame record must hold, in its
// order: the rows in a frame are only ever read by Slide (SUM(v) reads v
// alone) once every aggregate slides, so a round's other columns need not
// stay alive while its rows are in frames. nil: all of them.
func (o *OverAggs) FrameColumns() []int { return o.frameCol }

// Slides reports whether Slide computes aggregate i.
func (o *OverAggs) Slides(i int) bool { return o.slides != nil && o.slides[i] != nil }

// Slide computes the sliding aggregates for the rows of rec in order: row
// r is folded into slots[r], then leaving[r] (a row of recs, frame
// records of the columns FrameColumns) is taken out of it, then its
// result is read. out[i] gets the results of each sliding aggregate i;
// the caller releases them.
func (o *OverAggs) Slide(rec arrow.RecordBatch, slots []int32, leaving []OverRow, recs []arrow.RecordBatch, mem memory.Allocator, out []arrow.Array) {
	for i, s := range o.slides {
		if s == nil {
			continue
		}
		var col arrow.Array
		at := -1 // COUNT(*) reads no column
		if spec := &o.specs[i]; spec.Kind != CountStar {
			col, at = rec.Column(spec.Input), o.frameAt[spec.Input]
		}
		out[i] = s.slide(col, at, slots, leaving, recs, mem)
	}
}

// slideView is a column's values and validity as raw buffers.
type slideView[T any] struct {
	values []T
	valid  []byte // nil without NULLs
	offset int
}

func viewOf[T int8 | int16 | int32 | int64 | float32 | float64](col arrow.Array) slideView[T] {
	data := col.Data()
	v := slideView[T]{offset: data.Offset()}
	if buf := data.Buffers()[1]; buf != nil {
		v.values = arrow.GetData[T](buf.Bytes())
	}
	if col.NullN() > 0 {
		v.valid = data.Buffers()[0].Bytes()
	}
	return v
}

func (v *slideView[T]) isValid(i int) bool {
	return v.valid == nil || bitutil.BitIsSet(v.valid, v.offset+i)
}

// views is the column input of each of recs, for the rows leaving.
func views[T int8 | int16 | int32 | int64 | float32 | float64](recs []arrow.RecordBatch, input int, leaving []OverRow) []slideView[T] {
	out := make([]slideView[T], len(recs))
	for _, l := range leaving {
		if l.Rec >= 0 && out[l.Rec].values == nil {
			out[l.Rec] = viewOf[T](recs[l.Rec].Column(input))
		}
	}
	return out
}

// slideResults is a result column being written: its values and a validity
// bitmap, all set until a NULL clears a bit.
type slideResults[T any] struct {
	values, valid *memory.Buffer
	out           []T
	bits          []byte
	nulls         int
}

func newResults[T int8 | int16 | int32 | int64 | float32 | float64](mem memory.Allocator, n int, nullable bool) *slideResults[T] {
	var zero T
	r := &slideResults[T]{values: memory.NewResizableBuffer(mem)}
	r.values.Resize(n * int(sizeOfValue(zero)))
	r.out = arrow.GetData[T](r.values.Bytes())[:n]
	if nullable {
		r.valid = memory.NewResizableBuffer(mem)
		r.valid.Resize(int(bitutil.BytesForBits(int64(n))))
		r.bits = r.valid.Bytes()
		for i := range r.bits {
			r.bits[i] = 0xff
		}
	}
	return r
}

func (r *slideResults[T]) setNull(i int) {
	bitutil.ClearBit(r.bits, i)
	r.nulls++
}

func (r *slideResults[T]) array(dt arrow.DataType) arrow.Array {
	bufs := []*memory.Buffer{nil, r.values}
	if r.nulls > 0 {
		bufs[0] = r.valid
	} else if r.valid != nil {
		r.valid.Release()
	}
	data := array.NewData(dt, len(r.out), bufs, nil, r.nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer data.Release()
	return array.MakeFromData(data)
}

func sizeOfValue[T int8 | int16 | int32 | int64 | float32 | float64](v T) uintptr {
	switch any(v).(type) {
	case int8:
		return 1
	case int16:
		return 2
	case int32, float32:
		return 4
	}
	return 8
}

// slideSum is SUM and AVG of a column of T, summed as S: an integer
// column's sum wraps as an int64 and is cast to the column's type, as
// appendInt does, and its AVG truncates toward zero, as Flink's; a FLOAT
// or DOUBLE column is summed as float64.
type slideSum[T int8 | int16 | int32 | int64 | float32 | float64, S int64 | float64] struct{ a *retractSum }

// sums is the slots' sums as S: a.ints or a.flts, read at each slide
// (they grow with the slots).
func (s slideSum[T, S]) sums() []S {
	if p, ok := any(&s.a.ints).(*[]S); ok {
		return *p
	}
	return *any(&s.a.flts).(*[]S)
}

func (s slideSum[T, S]) slide(col arrow.Array, input int, slots []int32, leaving []OverRow, recs []arrow.RecordBatch, mem memory.Allocator) arrow.Array {
	a := s.a
	sums, ns := s.sums(), a.n
	cur := viewOf[T](col)
	old := views[T](recs, input, leaving)
	res := newResults[T](mem, len(slots), true)
	for r, sl := range slots {
		if cur.isValid(r) {
			sums[sl] += S(cur.values[cur.offset+r])
			ns[sl]++
		}
		if l := leaving[r]; l.Rec >= 0 {
			if v := &old[l.Rec]; v.isValid(int(l.Row)) {
				sums[sl] -= S(v.values[v.offset+int(l.Row)])
				ns[sl]--
			}
		}
		switch n := ns[sl]; {
		case n == 0:
			res.setNull(r) // its value stays the allocator's zero
		case a.avg:
			res.out[r] = T(sums[sl] / S(n))
		default:
			res.out[r] = T(sums[sl])
		}
	}
	return res.array(a.dt)
}

// slideCount is COUNT(*) and COUNT(x).
type slideCount struct{ a *retractCount }

func (s slideCount) slide(col arrow.Array, input int, slots []int32, leaving []OverRow, recs []arrow.RecordBatch, mem memory.Allocator) arrow.Array {
	counts := s.a.counts
	res := newResults[int64](mem, len(slots), false)
	if s.a.star {
		for r, sl := range slots {
			c := counts[sl] + 1
			if leaving[r].Rec >= 0 {
				c--
			}
			counts[sl], res.out[r] = c, c
		}
		return res.array(arrow.PrimitiveTypes.Int64)
	}
	for r, sl := range slots {
		if col.IsValid(r) {
			counts[sl]++
		}
		if l := leaving[r]; l.Rec >= 0 && recs[l.Rec].Column(input).IsValid(int(l.Row)) {
			counts[sl]--
		}
		res.out[r] = counts[sl]
	}
	return res.array(arrow.PrimitiveTypes.Int64)
}
