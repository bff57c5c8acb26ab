package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/scalartext"
)

// MathFunc is ABS, FLOOR, CEIL (same type as X: integers are returned
// unchanged by FLOOR and CEIL), and SQRT, EXP, LN, LOG10, POWER (DOUBLE;
// the planner casts the arguments to DOUBLE). NULL in, NULL out.
type MathFunc struct {
	Name string
	Args []Expr
}

func (e *MathFunc) DataType() arrow.DataType {
	switch e.Name {
	case "ABS", "FLOOR", "CEIL":
		return e.Args[0].DataType()
	}
	return arrow.PrimitiveTypes.Float64
}

func (e *MathFunc) children() []Expr { return e.Args }

func (e *MathFunc) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return e.Name + "(" + strings.Join(args, ", ") + ")"
}

func (e *MathFunc) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	in, err := evalAll(rec, mem, e.Args...)
	if err != nil {
		return nil, err
	}
	defer ReleaseAll(in)
	x := in[0]
	n := x.Len()
	validity, nulls := andValidity(mem, n, in...)
	var vals *memory.Buffer
	switch e.Name {
	case "ABS":
		switch x.DataType().ID() {
		case arrow.INT8:
			vals = absValues[int8](x, mem)
		case arrow.INT16:
			vals = absValues[int16](x, mem)
		case arrow.INT32:
			vals = absValues[int32](x, mem)
		case arrow.INT64:
			vals = absValues[int64](x, mem)
		case arrow.FLOAT32:
			vals = absValues[float32](x, mem)
		case arrow.FLOAT64:
			vals = absValues[float64](x, mem)
		}
	case "FLOOR", "CEIL":
		switch x.DataType().ID() {
		case arrow.FLOAT32:
			vals = floorCeil[float32](x, mem, e.Name == "CEIL")
		case arrow.FLOAT64:
			vals = floorCeil[float64](x, mem, e.Name == "CEIL")
		default:
			if validity != nil {
				validity.Release()
			}
			x.Retain()
			return x, nil
		}
	case "SQRT", "EXP", "LN", "LOG10":
		in := valuesOf[float64](x)
		var out []float64
		vals, out = NewValues[float64](mem, n)
		switch e.Name {
		case "SQRT":
			for i, v := range in {
				out[i] = math.Sqrt(v)
			}
		case "EXP":
			for i, v := range in {
				out[i] = math.Exp(v)
			}
		case "LN":
			for i, v := range in {
				out[i] = math.Log(v)
			}
		case "LOG10":
			for i, v := range in {
				out[i] = math.Log10(v)
			}
		}
	case "POWER":
		a, b := valuesOf[float64](x), valuesOf[float64](in[1])
		var out []float64
		vals, out = NewValues[float64](mem, n)
		for i := range out {
			out[i] = math.Pow(a[i], b[i])
		}
	}
	if vals == nil {
		if validity != nil {
			validity.Release()
		}
		return nil, fmt.Errorf("%s over %s is not supported", e.Name, x.DataType())
	}
	return NewArray(e.DataType(), n, validity, nulls, vals), nil
}

func absValues[T number](x arrow.Array, mem memory.Allocator) *memory.Buffer {
	in := valuesOf[T](x)
	buf, out := NewValues[T](mem, len(in))
	for i, v := range in {
		if v < 0 {
			v = -v
		}
		out[i] = v
	}
	return buf
}

func floorCeil[T float](x arrow.Array, mem memory.Allocator, ceil bool) *memory.Buffer {
	in := valuesOf[T](x)
	buf, out := NewValues[T](mem, len(in))
	if ceil {
		for i, v := range in {
			out[i] = T(math.Ceil(float64(v)))
		}
	} else {
		for i, v := range in {
			out[i] = T(math.Floor(float64(v)))
		}
	}
	return buf
}

// Round is ROUND(X, Digits) with Java's HALF_UP (ties away from zero),
// keeping X's type (a DECIMAL's scale becomes Digits when smaller);
// negative Digits round left of the point (ROUND(1250, -2) = 1300). A float is rounded in the decimal digits Java prints for it
// (Flink goes through BigDecimal.valueOf), so ROUND(2.675, 2) is 2.68 even
// though the binary double is a little below 2.675.
type Round struct {
	X      Expr
	Digits int
	// Decimal is the result type for a DECIMAL X (Flink's
	// findRoundDecimalType: the scale shrinks to Digits); nil keeps X's.
	Decimal *arrow.Decimal128Type
}

func (e *Round) DataType() arrow.DataType {
	if e.Decimal != nil {
		return e.Decimal
	}
	return e.X.DataType()
}
func (e *Round) children() []Expr { return []Expr{e.X} }
func (e *Round) String() string   { return fmt.Sprintf("ROUND(%s, %d)", e.X, e.Digits) }

func (e *Round) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	n := x.Len()
	if d, ok := x.(*array.Decimal128); ok {
		return e.roundDecimal(d, mem), nil
	}
	validity, nulls := andValidity(mem, n, x)
	var vals *memory.Buffer
	switch x.DataType().ID() {
	case arrow.INT8:
		vals = roundInts[int8](x, mem, e.Digits)
	case arrow.INT16:
		vals = roundInts[int16](x, mem, e.Digits)
	case arrow.INT32:
		vals = roundInts[int32](x, mem, e.Digits)
	case arrow.INT64:
		vals = roundInts[int64](x, mem, e.Digits)
	case arrow.FLOAT32:
		vals = roundFloats[float32](x, mem, e.Digits, 32)
	case arrow.FLOAT64:
		vals = roundFloats[float64](x, mem, e.Digits, 64)
	default:
		if validity != nil {
			validity.Release()
		}
		return nil, fmt.Errorf("ROUND over %s is not supported", x.DataType())
	}
	return NewArray(x.DataType(), n, validity, nulls, vals), nil
}

func roundInts[T integer](x arrow.Array, mem memory.Allocator, digits int) *memory.Buffer {
	in := valuesOf[T](x)
	buf, out := NewValues[T](mem, len(in))
	if digits >= 0 {
		copy(out, in)
		return buf
	}
	if digits < -18 {
		clear(out)
		return buf
	}
	p := int64(math.Pow10(-digits))
	half := p / 2
	for i, v := range in {
		w := int64(v)
		r := w % p
		w -= r
		if r >= half {
			w += p
		} else if r <= -half {
			w -= p
		}
		out[i] = T(w)
	}
	return buf
}

func roundFloats[T float](x arrow.Array, mem memory.Allocator, digits, bits int) *memory.Buffer {
	in := valuesOf[T](x)
	buf, out := NewValues[T](mem, len(in))
	var scratch [40]byte
	for i, v := range in {
		out[i] = T(roundHalfUp(float64(v), digits, bits, scratch[:0]))
	}
	return buf
}

// roundHalfUp rounds the shortest decimal text of v (Java's
// Double.toString digits) half away from zero at digits places.
func roundHalfUp(v float64, digits, bits int, scratch []byte) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return v
	}
	// d.ddddde±x: mantissa digits and exponent
	s := strconv.AppendFloat(scratch, v, 'e', -1, bits)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	m, exp := scalartext.SplitExponentForm(s)
	// the value is 0.m × 10^(exp+1); keep exp+1+digits leading digits
	keep := exp + 1 + digits
	if keep >= len(m) {
		return v
	}
	if keep < 0 {
		return 0
	}
	var q int64
	for _, c := range m[:keep] {
		q = q*10 + int64(c-'0')
	}
	if m[keep] >= '5' {
		q++
	}
	if q == 0 {
		return 0 // Java's BigDecimal has no negative zero
	}
	r := float64(q)
	// q × 10^-digits, computed so the result is the nearest double to the
	// decimal (a division by an exact power of ten rounds correctly)
	if digits > 0 {
		r /= math.Pow10(digits)
	} else if digits < 0 {
		r *= math.Pow10(-digits)
	}
	if neg {
		r = -r
	}
	return r
}

func (e *Round) roundDecimal(x *array.Decimal128, mem memory.Allocator) arrow.Array {
	from := x.DataType().(*arrow.Decimal128Type)
	dt := e.Decimal
	if dt == nil {
		dt = from
	}
	b := array.NewDecimal128Builder(mem, dt)
	defer b.Release()
	b.Reserve(x.Len())
	drop := int64(from.Scale) - int64(e.Digits) // in int64: digits far out of range must not wrap
	for i := range x.Len() {
		if x.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		v, ok := x.Value(i), true
		switch {
		case drop > 38:
			v = decimal128.Num{}
		case drop > 0:
			v = v.ReduceScaleBy(int32(drop), true)
			// back to the result's scale: 0 for negative digits, else digits
			v, ok = format.RescaleDecimal(v, from.Scale-int32(drop), dt.Scale)
		}
		if !ok || !v.FitsInPrecision(dt.Precision) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		b.UnsafeAppend(v)
	}
	return b.NewArray()
}
