package intervalfn

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// ScaleInt multiplies an integer column by a constant into a BIGINT
// column: INTERVAL '1' SECOND * n as milliseconds, for a dynamic session
// gap. NULL in, NULL out. A product beyond BIGINT is clamped to its range
// instead of wrapping into a small or negative gap; the session operator
// refuses a gap that long.
type ScaleInt struct {
	Arg    expr.Expr
	Factor int64
}

func (s *ScaleInt) DataType() arrow.DataType { return arrow.PrimitiveTypes.Int64 }
func (s *ScaleInt) Children() []expr.Expr    { return []expr.Expr{s.Arg} }

func (s *ScaleInt) String() string { return fmt.Sprintf("%s * %d", s.Arg, s.Factor) }

func (s *ScaleInt) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	in, err := s.Arg.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Reserve(in.Len())
	switch a := in.(type) {
	case *array.Int8:
		scaleInts(b, a.Int8Values(), in, s.Factor)
	case *array.Int16:
		scaleInts(b, a.Int16Values(), in, s.Factor)
	case *array.Int32:
		scaleInts(b, a.Int32Values(), in, s.Factor)
	case *array.Int64:
		scaleInts(b, a.Int64Values(), in, s.Factor)
	default:
		return nil, fmt.Errorf("cannot scale %s", in.DataType())
	}
	return b.NewArray(), nil
}

func scaleInts[T int8 | int16 | int32 | int64](b *array.Int64Builder, vals []T, in arrow.Array, f int64) {
	for i, v := range vals {
		if in.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		p := int64(v) * f
		if f != 0 && (p/f != int64(v) || (f == -1 && int64(v) == math.MinInt64)) {
			p = math.MaxInt64
			if (int64(v) < 0) != (f < 0) {
				p = math.MinInt64
			}
		}
		b.UnsafeAppend(p)
	}
}
