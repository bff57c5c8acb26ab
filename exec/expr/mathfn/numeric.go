package mathfn

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Sign is SIGN(x): -1, 0 or 1 in the type of x (for a DECIMAL(p, s),
// ±1 at scale s).
type Sign struct{ X expr.Expr }

func (e *Sign) DataType() arrow.DataType { return e.X.DataType() }
func (e *Sign) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *Sign) String() string           { return call("SIGN", e.Children()) }

func (e *Sign) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	return mapNumbers(rec, mem, e.X, 0, false)
}

// Truncate is TRUNCATE(x, d): x cut (toward zero) to d digits after the
// point, d < 0 zeroing digits before it; the type of x.
type Truncate struct {
	X, D expr.Expr // D is a BIGINT
	// Decimal is the result type of a DECIMAL x with a constant d (as
	// ROUND's); nil keeps x's type.
	Decimal *arrow.Decimal128Type
}

func (e *Truncate) DataType() arrow.DataType {
	if e.Decimal != nil {
		return e.Decimal
	}
	return e.X.DataType()
}
func (e *Truncate) Children() []expr.Expr { return []expr.Expr{e.X, e.D} }
func (e *Truncate) String() string        { return call("TRUNCATE", e.Children()) }

func (e *Truncate) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	d, err := e.D.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	out, err := mapNumbers(rec, mem, e.X, 0, true, d)
	if err != nil || e.Decimal == nil {
		return out, err
	}
	defer out.Release()
	// the digits cut are zeros now: dropping them is exact
	from := out.DataType().(*arrow.Decimal128Type).Scale
	in := expr.ValuesOf[decimal128.Num](out)
	vb, vals := expr.NewValues[decimal128.Num](mem, len(in))
	for i, v := range in {
		vals[i] = v.ReduceScaleBy(from-e.Decimal.Scale, false)
	}
	validity, nulls := expr.AndValidity(mem, out.Len(), out)
	return expr.NewArray(e.Decimal, out.Len(), validity, nulls, vb), nil
}

// mapNumbers computes SIGN (truncate false) or TRUNCATE over x's column.
func mapNumbers(rec arrow.RecordBatch, mem memory.Allocator, x expr.Expr, _ int, truncate bool, extra ...arrow.Array) (arrow.Array, error) {
	a, err := x.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := a.Len()
	var digits []int64
	if truncate {
		digits = expr.ValuesOf[int64](extra[0])
	}
	validity, nulls := expr.AndValidity(mem, n, append([]arrow.Array{a}, extra...)...)
	var vb *memory.Buffer
	switch dt := a.DataType().(type) {
	case *arrow.Int8Type:
		vb = mapInts[int8](mem, a, digits)
	case *arrow.Int16Type:
		vb = mapInts[int16](mem, a, digits)
	case *arrow.Int32Type:
		vb = mapInts[int32](mem, a, digits)
	case *arrow.Int64Type:
		vb = mapInts[int64](mem, a, digits)
	case *arrow.Float32Type:
		vb = mapFloats[float32](mem, a, digits, 32)
	case *arrow.Float64Type:
		vb = mapFloats[float64](mem, a, digits, 64)
	case *arrow.Decimal128Type:
		in := expr.ValuesOf[decimal128.Num](a)
		var out []decimal128.Num
		vb, out = expr.NewValues[decimal128.Num](mem, n)
		one := decimal128.FromI64(1).IncreaseScaleBy(dt.Scale)
		for i, v := range in {
			if digits == nil {
				out[i] = decimal128.Num{}
				switch v.Sign() {
				case 1:
					out[i] = one
				case -1:
					out[i] = one.Negate()
				}
				continue
			}
			cut := int64(dt.Scale) - digits[i]
			switch {
			case cut <= 0:
				out[i] = v
			case cut >= 38:
				out[i] = decimal128.Num{}
			default:
				out[i] = v.ReduceScaleBy(int32(cut), false).IncreaseScaleBy(int32(cut))
			}
		}
	default:
		if validity != nil {
			validity.Release()
		}
		return nil, fmt.Errorf("%s of %s is not supported", map[bool]string{true: "TRUNCATE", false: "SIGN"}[truncate], a.DataType())
	}
	return expr.NewArray(a.DataType(), n, validity, nulls, vb), nil
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64
}

func mapInts[T integer](mem memory.Allocator, a arrow.Array, digits []int64) *memory.Buffer {
	in := expr.ValuesOf[T](a)
	vb, out := expr.NewValues[T](mem, len(in))
	for i, v := range in {
		if digits == nil {
			out[i] = T(sign(v))
			continue
		}
		out[i] = v
		if d := digits[i]; d < 0 {
			if d <= -19 {
				out[i] = 0
				continue
			}
			p := int64(1)
			for range -d {
				p *= 10
			}
			out[i] = T(int64(v) / p * p)
		}
	}
	return vb
}

func sign[T integer](v T) T {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func mapFloats[T ~float32 | ~float64](mem memory.Allocator, a arrow.Array, digits []int64, bits int) *memory.Buffer {
	in := expr.ValuesOf[T](a)
	vb, out := expr.NewValues[T](mem, len(in))
	var buf []byte
	for i, v := range in {
		if digits == nil {
			switch {
			case v > 0:
				out[i] = 1
			case v < 0:
				out[i] = -1
			default:
				out[i] = v // 0, -0 and NaN stay, as Math.signum
			}
			continue
		}
		var f float64
		f, buf = truncateFloat(buf[:0], float64(v), digits[i], bits)
		out[i] = T(f)
	}
	return vb
}

// truncateFloat is Flink's TRUNCATE of a DOUBLE: the shortest decimal
// text of v (BigDecimal.valueOf) cut to d digits after the point.
func truncateFloat(buf []byte, v float64, d int64, bits int) (float64, []byte) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return v, buf
	}
	buf = strconv.AppendFloat(buf, math.Abs(v), 'f', -1, bits)
	dot := bytes.IndexByte(buf, '.')
	if dot < 0 {
		dot = len(buf)
	}
	switch frac := int64(len(buf) - dot - 1); {
	case d >= frac:
		return v, buf
	case d >= 0:
		buf = buf[:int64(dot)+1+d]
	default:
		k := int64(dot) + d
		if k <= 0 {
			return 0, buf
		}
		buf = buf[:dot]
		for j := k; j < int64(dot); j++ {
			buf[j] = '0'
		}
	}
	f, _ := strconv.ParseFloat(unsafe.String(unsafe.SliceData(buf), len(buf)), bits)
	return math.Copysign(f, v), buf
}

// Bin is BIN(x): the integer's bits as text (two's complement for a
// negative, as Long.toBinaryString); Hex is HEX(x) in upper-case hex.
type Bin struct {
	X    expr.Expr // BIGINT
	Base int       // 2 or 16
}

func (e *Bin) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *Bin) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *Bin) String() string {
	if e.Base == 16 {
		return call("HEX", e.Children())
	}
	return call("BIN", e.Children())
}

func (e *Bin) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	in := expr.ValuesOf[int64](a)
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(len(in))
	var buf []byte
	for i, v := range in {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = strconv.AppendUint(buf[:0], uint64(v), e.Base)
		for k, c := range buf {
			if 'a' <= c && c <= 'f' {
				buf[k] = c - 'a' + 'A'
			}
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}
