package temporal

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Diff is TIMESTAMPDIFF(Unit, A, B): the whole units from A to B as an
// INT, negative when B is before A, truncated toward zero. Months count
// as Calcite's subtractMonths does: from 01-31 to 02-28 is 0 months, to
// 02-29 (the clamped day) 1. NULL when A or B is.
type Diff struct {
	Unit string
	A, B expr.Expr // TIMESTAMP or DATE, or both TIMESTAMP_LTZ
}

func (e *Diff) DataType() arrow.DataType { return arrow.PrimitiveTypes.Int32 }
func (e *Diff) Children() []expr.Expr    { return []expr.Expr{e.A, e.B} }
func (e *Diff) String() string {
	return fmt.Sprintf("TIMESTAMPDIFF(%s, %s, %s)", e.Unit, e.A, e.B)
}

func (e *Diff) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	aa, err := e.A.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer aa.Release()
	ba, err := e.B.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer ba.Release()
	n := aa.Len()
	validity, nulls := expr.AndValidity(mem, n, aa, ba)
	buf, out := expr.NewValues[int32](mem, n)
	var scratchA, scratchB []int64
	if aa.DataType().ID() == arrow.DATE32 {
		scratchA = make([]int64, 0, n)
	}
	if ba.DataType().ID() == arrow.DATE32 {
		scratchB = make([]int64, 0, n)
	}
	as, bs := values(aa, scratchA), values(ba, scratchB)
	c := clockOf(aa.DataType()) // the planner gives both one clock
	fixed, months := c.ticks(1, fixedUnits[e.Unit]), monthUnits[e.Unit]
	// a unit finer than the clock: each tick is several units
	finer := int64(0)
	if unit := fixedUnits[e.Unit]; unit > 0 && fixed == 0 {
		finer = nsPerDay / c.day / unit
	}
	for i := range out {
		switch {
		case months > 0:
			out[i] = int32(c.subtractMonths(bs[i], as[i]) / months)
		case finer > 0:
			out[i] = int32((bs[i] - as[i]) * finer)
		default:
			out[i] = int32((bs[i] - as[i]) / fixed)
		}
	}
	return expr.NewArray(arrow.PrimitiveTypes.Int32, n, validity, nulls, buf), nil
}
