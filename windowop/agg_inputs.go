package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// aggInputs hands each aggregate the rows of a batch it folds: its
// argument column (COUNT(DISTINCT a, b)'s columns as one struct column)
// and, for an aggregate with a FILTER (WHERE ...) clause, the slots with
// -1 for rows whose condition is not TRUE. Such a row still opens and
// fires its window, as in Flink: COUNT(*) FILTER (WHERE FALSE) is 0.
type aggInputs struct {
	filtered   []int32     // scratch, reused across batches
	retracters []retracter // retractersOf's, reused
}

// update folds rows [from, to) of rec into the slots of every accumulator.
func (u *aggInputs) update(accs []accumulator, specs []AggSpec, rec arrow.RecordBatch, slots []int32, from, to int) {
	for i, a := range accs {
		spec := &specs[i]
		s := slots
		if spec.Filtered {
			s = u.filter(rec.Column(spec.Filter), slots, from, to)
		}
		switch {
		case spec.Kind == CountStar:
			a.update(nil, s, from, to)
		case len(spec.MoreInputs) > 0:
			col := argRows(rec, spec)
			a.update(col, s, from, to)
			col.Release()
		default:
			a.update(rec.Column(spec.Input), s, from, to)
		}
	}
}

// retract takes rows [from, to) of rec out of their slots in every
// accumulator (all retracters: GroupConfig.Retract).
func (u *aggInputs) retract(accs []accumulator, specs []AggSpec, rec arrow.RecordBatch, slots []int32, from, to int) {
	for i, r := range u.retractersOf(accs) {
		u.retractOne(r, &specs[i], rec, slots, from, to)
	}
}

// retractersOf is accs as retracters, asserted once for the same
// accumulators: a global aggregate's segments are single rows, and an
// assertion per call would be paid per row.
func (u *aggInputs) retractersOf(accs []accumulator) []retracter {
	if len(u.retracters) == len(accs) && (len(accs) == 0 || any(u.retracters[0]) == any(accs[0])) {
		return u.retracters
	}
	u.retracters = u.retracters[:0]
	for _, a := range accs {
		u.retracters = append(u.retracters, a.(retracter))
	}
	return u.retracters
}

func (u *aggInputs) retractOne(r retracter, spec *AggSpec, rec arrow.RecordBatch, slots []int32, from, to int) {
	s := slots
	if spec.Filtered {
		s = u.filter(rec.Column(spec.Filter), slots, from, to)
	}
	switch {
	case spec.Kind == CountStar:
		r.retract(nil, s, from, to)
	case len(spec.MoreInputs) > 0:
		col := argRows(rec, spec)
		r.retract(col, s, from, to)
		col.Release()
	default:
		r.retract(rec.Column(spec.Input), s, from, to)
	}
}

// filter returns slots with -1 for the rows of [from, to) whose filter is
// FALSE or NULL; outside [from, to) the result is undefined.
func (u *aggInputs) filter(col arrow.Array, slots []int32, from, to int) []int32 {
	u.filtered = grow(u.filtered, to)
	out, cond := u.filtered, col.(*array.Boolean)
	if cond.NullN() == 0 {
		for i := from; i < to; i++ {
			out[i] = slots[i]
			if !cond.Value(i) {
				out[i] = -1
			}
		}
		return out
	}
	for i := from; i < to; i++ {
		out[i] = slots[i]
		if !cond.IsValid(i) || !cond.Value(i) {
			out[i] = -1
		}
	}
	return out
}

// argRows is the struct column of an aggregate's several arguments; it
// shares their buffers, so building it per batch copies no values.
func argRows(rec arrow.RecordBatch, spec *AggSpec) arrow.Array {
	cols := make([]arrow.Array, 0, 1+len(spec.MoreInputs))
	names := make([]string, 0, cap(cols))
	for j, idx := range append([]int{spec.Input}, spec.MoreInputs...) {
		cols = append(cols, rec.Column(idx))
		names = append(names, fmt.Sprintf("f%d", j))
	}
	s, err := array.NewStructArray(cols, names)
	if err != nil {
		panic(fmt.Sprintf("arguments of %s: %v", spec.Kind, err)) // columns of one batch have one length
	}
	return s
}

// argType is the type of the column an aggregate reads from input (nil
// for COUNT(*)): its argument's, or a struct of its several arguments'.
func argType(spec AggSpec, input *arrow.Schema) arrow.DataType {
	switch {
	case spec.Kind == CountStar:
		return nil
	case len(spec.MoreInputs) > 0:
		var fields []arrow.Field
		for j, idx := range append([]int{spec.Input}, spec.MoreInputs...) {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("f%d", j), Type: input.Field(idx).Type, Nullable: true})
		}
		return arrow.StructOf(fields...)
	}
	return input.Field(spec.Input).Type
}

// checkInputs checks the columns spec reads from input.
func checkInputs(spec AggSpec, input *arrow.Schema) error {
	n := input.NumFields()
	if spec.Filtered {
		if spec.Filter < 0 || spec.Filter >= n {
			return fmt.Errorf("%s filter index %d out of range", spec.Kind, spec.Filter)
		}
		if dt := input.Field(spec.Filter).Type; dt.ID() != arrow.BOOL {
			return fmt.Errorf("the FILTER of %s must be BOOLEAN, got %s", spec.Kind, dt)
		}
	}
	for _, idx := range spec.MoreInputs {
		if idx < 0 || idx >= n {
			return fmt.Errorf("%s input index %d out of range", spec.Kind, idx)
		}
	}
	if spec.Kind != CountStar && (spec.Input < 0 || spec.Input >= n) {
		return fmt.Errorf("%s input index %d out of range", spec.Kind, spec.Input)
	}
	return nil
}
