package temporal

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Add is TIMESTAMPADD(Unit, N, T): T plus N units, of T's type (a DATE
// plus a unit shorter than a day is a TIMESTAMP(3)). Months keep the day
// of the month, clamped to the month's length. NULL when N or T is.
type Add struct {
	Unit string
	N    expr.Expr // BIGINT
	T    expr.Expr // TIMESTAMP, TIMESTAMP_LTZ or DATE
	Type arrow.DataType
}

// NewAdd types TIMESTAMPADD of t.
func NewAdd(unit string, n, t expr.Expr) *Add {
	dt := t.DataType()
	if dt.ID() == arrow.DATE32 && fixedUnits[unit] > 0 && fixedUnits[unit] < nsPerDay {
		dt = &arrow.TimestampType{Unit: arrow.Millisecond}
	}
	return &Add{Unit: unit, N: n, T: t, Type: dt}
}

func (e *Add) DataType() arrow.DataType { return e.Type }
func (e *Add) Children() []expr.Expr    { return []expr.Expr{e.N, e.T} }
func (e *Add) String() string {
	return fmt.Sprintf("TIMESTAMPADD(%s, %s, %s)", e.Unit, e.N, e.T)
}

func (e *Add) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	na, err := e.N.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer na.Release()
	ta, err := e.T.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer ta.Release()
	n := ta.Len()
	validity, nulls := expr.AndValidity(mem, n, na, ta)
	counts := expr.ValuesOf[int64](na)
	if e.Type.ID() == arrow.DATE32 {
		buf, out := expr.NewValues[int32](mem, n)
		for i, d := range expr.ValuesOf[int32](ta) {
			out[i] = int32(msClock.step(int64(d)*msPerDay, counts[i], e.Unit) / msPerDay)
		}
		return expr.NewArray(e.Type, n, validity, nulls, buf), nil
	}
	c := clockOf(ta.DataType())
	buf, out := expr.NewValues[int64](mem, n)
	for i, v := range values(ta, out) {
		out[i] = c.step(v, counts[i], e.Unit)
	}
	return expr.NewArray(e.Type, n, validity, nulls, buf), nil
}
