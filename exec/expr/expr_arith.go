package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Arith is L op R for op one of + - * / %. The planner casts both operands
// to Type's storage first (the common type; for TIMESTAMP ± INTERVAL the
// interval is a BIGINT of milliseconds, for DATE ± INTERVAL an INT of
// days), so the kernel sees one Go type. Integers wrap on overflow and
// divide truncating toward zero, as Java does; an integer division or
// remainder by zero fails, as Flink's job does. Floats follow IEEE 754.
type Arith struct {
	Op   byte
	L, R Expr
	Type arrow.DataType
}

func (e *Arith) DataType() arrow.DataType { return e.Type }
func (e *Arith) String() string           { return fmt.Sprintf("(%s %c %s)", e.L, e.Op, e.R) }
func (e *Arith) children() []Expr         { return []Expr{e.L, e.R} }

func (e *Arith) canFail() bool {
	return (e.Op == '/' || e.Op == '%') && !isFloatType(e.Type)
}

func (e *Arith) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	in, err := evalAll(rec, mem, e.L, e.R)
	if err != nil {
		return nil, err
	}
	defer ReleaseAll(in)
	l, r := in[0], in[1]
	n := l.Len()
	validity, nulls := andValidity(mem, n, l, r)
	var vals *memory.Buffer
	switch storageID(e.Type) {
	case arrow.INT8:
		vals, err = arithInts[int8](e, l, r, validity, mem)
	case arrow.INT16:
		vals, err = arithInts[int16](e, l, r, validity, mem)
	case arrow.INT32:
		vals, err = arithInts[int32](e, l, r, validity, mem)
	case arrow.INT64:
		vals, err = arithInts[int64](e, l, r, validity, mem)
	case arrow.FLOAT32:
		vals = arithFloats[float32](e.Op, l, r, mem)
	case arrow.FLOAT64:
		vals = arithFloats[float64](e.Op, l, r, mem)
	default:
		err = fmt.Errorf("arithmetic on %s is not supported", e.Type)
	}
	if err != nil {
		if validity != nil {
			validity.Release()
		}
		return nil, err
	}
	return NewArray(e.Type, n, validity, nulls, vals), nil
}

func arithInts[T integer](e *Arith, la, ra arrow.Array, validity *memory.Buffer, mem memory.Allocator) (*memory.Buffer, error) {
	l, r := valuesOf[T](la), valuesOf[T](ra)
	buf, out := NewValues[T](mem, len(l))
	switch e.Op {
	case '+':
		for i := range out {
			out[i] = l[i] + r[i]
		}
	case '-':
		for i := range out {
			out[i] = l[i] - r[i]
		}
	case '*':
		for i := range out {
			out[i] = l[i] * r[i]
		}
	case '/', '%':
		var valid []byte
		if validity != nil {
			valid = validity.Bytes()
		}
		for i := range out {
			d := r[i]
			if d == 0 {
				if valid == nil || bitutil.BitIsSet(valid, i) {
					buf.Release()
					return nil, fmt.Errorf("%w: division by zero in %s", ErrEval, e)
				}
				out[i] = 0
				continue
			}
			if e.Op == '/' {
				out[i] = l[i] / d
			} else {
				out[i] = l[i] % d
			}
		}
	}
	return buf, nil
}

func arithFloats[T float](op byte, la, ra arrow.Array, mem memory.Allocator) *memory.Buffer {
	l, r := valuesOf[T](la), valuesOf[T](ra)
	buf, out := NewValues[T](mem, len(l))
	switch op {
	case '+':
		for i := range out {
			out[i] = l[i] + r[i]
		}
	case '-':
		for i := range out {
			out[i] = l[i] - r[i]
		}
	case '*':
		for i := range out {
			out[i] = l[i] * r[i]
		}
	case '/':
		for i := range out {
			out[i] = l[i] / r[i]
		}
	case '%':
		for i := range out {
			out[i] = T(math.Mod(float64(l[i]), float64(r[i])))
		}
	}
	return buf
}

// Negate is unary minus. Integers wrap (-MIN = MIN), as in Java; a
// DECIMAL keeps its type.
type Negate struct{ X Expr }

func (e *Negate) DataType() arrow.DataType { return e.X.DataType() }
func (e *Negate) String() string           { return fmt.Sprintf("-%s", e.X) }
func (e *Negate) children() []Expr         { return []Expr{e.X} }

func (e *Negate) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	validity, nulls := andValidity(mem, x.Len(), x)
	var vals *memory.Buffer
	switch storageID(x.DataType()) {
	case arrow.INT8:
		vals = negate[int8](x, mem)
	case arrow.INT16:
		vals = negate[int16](x, mem)
	case arrow.INT32:
		vals = negate[int32](x, mem)
	case arrow.INT64:
		vals = negate[int64](x, mem)
	case arrow.FLOAT32:
		vals = negate[float32](x, mem)
	case arrow.FLOAT64:
		vals = negate[float64](x, mem)
	case arrow.DECIMAL128:
		vals = negateDecimals(x, mem)
	default:
		if validity != nil {
			validity.Release()
		}
		return nil, fmt.Errorf("cannot negate %s", x.DataType())
	}
	return NewArray(x.DataType(), x.Len(), validity, nulls, vals), nil
}

func negate[T number](x arrow.Array, mem memory.Allocator) *memory.Buffer {
	in := valuesOf[T](x)
	buf, out := NewValues[T](mem, len(in))
	for i, v := range in {
		out[i] = -v
	}
	return buf
}

// negateDecimals flips the sign of each DECIMAL value; a DECIMAL(p, s)
// negated always fits DECIMAL(p, s).
func negateDecimals(x arrow.Array, mem memory.Allocator) *memory.Buffer {
	in := valuesOf[decimal128.Num](x)
	buf, out := NewValues[decimal128.Num](mem, len(in))
	for i, v := range in {
		out[i] = v.Negate()
	}
	return buf
}

// storageID is the Arrow type id of the values a type is stored as: DATE
// as INT32, TIMESTAMP and TIME as their integer width.
func storageID(dt arrow.DataType) arrow.Type {
	switch dt.ID() {
	case arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		return arrow.INT32
	case arrow.TIMESTAMP, arrow.DATE64, arrow.TIME64, arrow.DURATION:
		return arrow.INT64
	}
	return dt.ID()
}

func isFloatType(dt arrow.DataType) bool {
	return dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT64
}
