package temporal

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/rowtime"
)

// Round is FLOOR(X TO Unit), or CEIL with Ceil: X rounded down (up) to a
// whole unit, of X's type. A TIMESTAMP_LTZ is rounded on its wall clock in
// the session zone Loc; a DATE by a unit shorter than a day is itself.
type Round struct {
	Unit string
	Ceil bool
	X    expr.Expr
	Loc  *time.Location
}

func (e *Round) DataType() arrow.DataType { return e.X.DataType() }
func (e *Round) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *Round) String() string {
	name := "FLOOR"
	if e.Ceil {
		name = "CEIL"
	}
	return fmt.Sprintf("%s(%s TO %s)", name, e.X, e.Unit)
}

func (e *Round) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	validity, nulls := expr.AndValidity(mem, n, x)
	dt := x.DataType()
	c := clockOf(dt)
	round := c.floor
	if e.Ceil {
		round = c.ceil
	}
	if tt, ok := dt.(*arrow.Time32Type); ok {
		// a time of day: whole units of the day, CEIL past the last one
		// wrapping to midnight
		mult := int64(1) // TIME(3): milliseconds of the day
		if tt.Unit == arrow.Second {
			mult = 1000
		}
		buf, out := expr.NewValues[int32](mem, n)
		for i, v := range expr.ValuesOf[int32](x) {
			out[i] = int32(round(int64(v)*mult, e.Unit) % msPerDay / mult)
		}
		return expr.NewArray(dt, n, validity, nulls, buf), nil
	}
	if dt.ID() == arrow.DATE32 {
		buf, out := expr.NewValues[int32](mem, n)
		for i, d := range expr.ValuesOf[int32](x) {
			out[i] = d
			if fixedUnits[e.Unit] >= nsPerDay || monthUnits[e.Unit] > 0 {
				out[i] = int32(rowtime.FloorDiv(round(int64(d)*msPerDay, e.Unit), msPerDay)) // msClock
			}
		}
		return expr.NewArray(dt, n, validity, nulls, buf), nil
	}
	buf, out := expr.NewValues[int64](mem, n)
	in := expr.ValuesOf[int64](x)
	if dt.(*arrow.TimestampType).TimeZone == "" {
		for i, ms := range in {
			out[i] = round(ms, e.Unit)
		}
		return expr.NewArray(dt, n, validity, nulls, buf), nil
	}
	local := rowtime.NewLocalTime(e.Loc)
	local.ToLocalColumn(in, out)
	for i, ms := range out {
		out[i] = local.ToEpoch(round(ms, e.Unit))
	}
	return expr.NewArray(dt, n, validity, nulls, buf), nil
}
