package jdbc

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/catalog"
)

// A read asks for every column in PostgreSQL's binary form (the type's
// send/recv form) and appends each value straight into its column's
// Arrow builder: no text, no Go value between, no allocation a row.

// decoder makes the valueReader of a column over the column's builder,
// once a read.
type decoder func(b array.Builder) valueReader

// valueReader appends a value, in PostgreSQL's binary form and not NULL,
// to its builder; an error for a value the column cannot hold (a NaN
// into a DECIMAL, infinity into a DATE, a TINYINT out of range).
type valueReader interface {
	value(v []byte) error
}

// errBadValue marks a value of the wrong length for its type: the
// server's type is not the one checked (the table changed).
var errBadValue = errors.New("a value of an unexpected length; did the PostgreSQL table change?")

// newDecoder is the decoder of column c read from PostgreSQL column pg,
// of type oid (its element type for an array); readMatch checked them.
func newDecoder(c catalog.Column, oid uint32, isArray bool) decoder {
	typ := c.Type
	if l, ok := typ.(*arrow.ListType); ok {
		typ = l.Elem()
	}
	d := scalarDecoder(typ, oid)
	if !isArray {
		return d
	}
	return func(b array.Builder) valueReader {
		lb := b.(*array.ListBuilder)
		return &listReader{b: lb, elem: d(lb.ValueBuilder()), vb: lb.ValueBuilder(), oid: oid}
	}
}

func scalarDecoder(t arrow.DataType, oid uint32) decoder {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return func(b array.Builder) valueReader { return boolReader{b.(*array.BooleanBuilder)} }
	case *arrow.Int8Type:
		return func(b array.Builder) valueReader { return int8Reader{b.(*array.Int8Builder)} }
	case *arrow.Int16Type:
		return func(b array.Builder) valueReader { return int16Reader{b.(*array.Int16Builder)} }
	case *arrow.Int32Type:
		return func(b array.Builder) valueReader { return int32Reader{b.(*array.Int32Builder)} }
	case *arrow.Int64Type:
		return func(b array.Builder) valueReader { return int64Reader{b.(*array.Int64Builder)} }
	case *arrow.Float32Type:
		return func(b array.Builder) valueReader { return float32Reader{b.(*array.Float32Builder)} }
	case *arrow.Float64Type:
		return func(b array.Builder) valueReader { return float64Reader{b.(*array.Float64Builder)} }
	case *arrow.Decimal128Type:
		return func(b array.Builder) valueReader {
			return decimalReader{b.(*array.Decimal128Builder), t.Precision, t.Scale}
		}
	case *arrow.StringType:
		return func(b array.Builder) valueReader {
			return stringReader{b.(*array.StringBuilder).BinaryBuilder, oid == oidJSONB}
		}
	case *arrow.BinaryType:
		return func(b array.Builder) valueReader { return binaryReader{b.(*array.BinaryBuilder)} }
	case *arrow.Date32Type:
		return func(b array.Builder) valueReader { return dateReader{b.(*array.Date32Builder)} }
	case *arrow.Time32Type:
		per := int64(1e6) // microseconds a unit
		if t.Unit == arrow.Millisecond {
			per = 1e3
		}
		return func(b array.Builder) valueReader { return timeReader{b.(*array.Time32Builder), per} }
	case *arrow.TimestampType:
		unit := t.Unit
		return func(b array.Builder) valueReader { return timestampReader{b.(*array.TimestampBuilder), unit} }
	}
	panic("jdbc: no decoder for " + t.String()) // readMatch checked the type
}

type boolReader struct{ b *array.BooleanBuilder }

func (r boolReader) value(v []byte) error {
	if len(v) != 1 {
		return errBadValue
	}
	r.b.Append(v[0] != 0)
	return nil
}

// pgInt reads a smallint, integer or bigint.
func pgInt(v []byte) (int64, error) {
	switch len(v) {
	case 2:
		return int64(int16(be.Uint16(v))), nil
	case 4:
		return int64(int32(be.Uint32(v))), nil
	case 8:
		return int64(be.Uint64(v)), nil
	}
	return 0, errBadValue
}

type int8Reader struct{ b *array.Int8Builder }

func (r int8Reader) value(v []byte) error {
	n, err := pgInt(v)
	if err != nil {
		return err
	}
	if n < math.MinInt8 || n > math.MaxInt8 {
		return fmt.Errorf("%d is out of the range of TINYINT (-128 to 127)", n)
	}
	r.b.Append(int8(n))
	return nil
}

type int16Reader struct{ b *array.Int16Builder }

func (r int16Reader) value(v []byte) error {
	n, err := pgInt(v)
	r.b.Append(int16(n)) // smallint only (readMatch)
	return err
}

type int32Reader struct{ b *array.Int32Builder }

func (r int32Reader) value(v []byte) error {
	n, err := pgInt(v)
	r.b.Append(int32(n)) // integer or smallint (readMatch)
	return err
}

type int64Reader struct{ b *array.Int64Builder }

func (r int64Reader) value(v []byte) error {
	n, err := pgInt(v)
	r.b.Append(n)
	return err
}

type float32Reader struct{ b *array.Float32Builder }

func (r float32Reader) value(v []byte) error {
	if len(v) != 4 {
		return errBadValue
	}
	r.b.Append(math.Float32frombits(be.Uint32(v)))
	return nil
}

type float64Reader struct{ b *array.Float64Builder }

func (r float64Reader) value(v []byte) error {
	switch len(v) {
	case 4:
		r.b.Append(float64(math.Float32frombits(be.Uint32(v))))
	case 8:
		r.b.Append(math.Float64frombits(be.Uint64(v)))
	default:
		return errBadValue
	}
	return nil
}

type decimalReader struct {
	b           *array.Decimal128Builder
	prec, scale int32
}

func (r decimalReader) value(v []byte) error {
	n, err := pgNumeric(v, r.prec, r.scale)
	if err != nil {
		return err
	}
	r.b.Append(n)
	return nil
}

// pgNumeric reads a numeric as a DECIMAL(prec, scale): more fraction
// digits than scale are rounded half up (Flink's
// DecimalData.fromBigDecimal), a value with more digits than prec is an
// error, as are NaN and the infinities.
func pgNumeric(v []byte, prec, scale int32) (decimal128.Num, error) {
	if len(v) < 8 {
		return decimal128.Num{}, errBadValue
	}
	nd := int(be.Uint16(v))
	weight := int(int16(be.Uint16(v[2:])))
	sign := be.Uint16(v[4:])
	if len(v) != 8+2*nd {
		return decimal128.Num{}, errBadValue
	}
	switch sign {
	case 0x0000, 0x4000:
	case 0xC000:
		return decimal128.Num{}, errors.New("NaN has no DECIMAL value")
	default:
		return decimal128.Num{}, errors.New("infinity has no DECIMAL value")
	}
	// the digits (base 10000) as an integer n; the value is n times
	// 10^exp
	exp := int32(4 * (weight - nd + 1))
	if nd <= 4 { // at most 16 decimal digits: in a uint64, the common case
		var u uint64
		for i := range nd {
			u = u*10000 + uint64(be.Uint16(v[8+2*i:]))
		}
		if n, ok := scaleU64(u, exp+scale); ok {
			if !n.FitsInPrecision(prec) {
				return decimal128.Num{}, fmt.Errorf("%s does not fit DECIMAL(%d, %d)", numericText(v), prec, scale)
			}
			if sign == 0x4000 {
				n = n.Negate()
			}
			return n, nil
		}
	}
	var n decimal128.Num
	if nd <= 9 { // at most 36 decimal digits: no overflow
		for i := range nd {
			n = n.Mul(decimal128.FromU64(10000)).Add(decimal128.FromU64(uint64(be.Uint16(v[8+2*i:]))))
		}
	} else {
		b := new(big.Int)
		for i := range nd {
			b.Mul(b, big.NewInt(10000))
			b.Add(b, big.NewInt(int64(be.Uint16(v[8+2*i:]))))
		}
		// cut the digits beyond the scale first, so n fits if the value does
		if cut := -(exp + scale); cut > 0 {
			q, rem := new(big.Int), new(big.Int)
			div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(cut)), nil)
			q.QuoRem(b, div, rem)
			if rem.Mul(rem, big.NewInt(2)).Cmp(div) >= 0 {
				q.Add(q, big.NewInt(1))
			}
			b, exp = q, -scale
		}
		if b.BitLen() > 126 {
			return decimal128.Num{}, fmt.Errorf("%s does not fit DECIMAL(%d, %d)", numericText(v), prec, scale)
		}
		n = decimal128.FromBigInt(b)
	}
	switch shift := exp + scale; {
	case shift > 0:
		if shift > 38 {
			return decimal128.Num{}, fmt.Errorf("%s does not fit DECIMAL(%d, %d)", numericText(v), prec, scale)
		}
		n = n.IncreaseScaleBy(shift)
	case shift < 0:
		if -shift > 38 {
			n = decimal128.Num{}
		} else {
			n = n.ReduceScaleBy(-shift, true)
		}
	}
	if !n.FitsInPrecision(prec) {
		return decimal128.Num{}, fmt.Errorf("%s does not fit DECIMAL(%d, %d)", numericText(v), prec, scale)
	}
	if sign == 0x4000 {
		n = n.Negate()
	}
	return n, nil
}

// pow10 are the powers of ten a uint64 holds.
var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// scaleU64 is u times 10^shift, rounded half up, as a decimal128.Num,
// computed in a uint64 (no allocation); false when it does not fit one.
func scaleU64(u uint64, shift int32) (decimal128.Num, bool) {
	switch {
	case shift > 0:
		if shift >= int32(len(pow10)) {
			return decimal128.Num{}, false
		}
		hi, lo := bits.Mul64(u, pow10[shift])
		if hi != 0 {
			return decimal128.Num{}, false
		}
		return decimal128.FromU64(lo), true
	case shift < 0:
		if -shift >= int32(len(pow10)) {
			return decimal128.FromU64(0), true // u < 10^16: rounds to 0
		}
		d := pow10[-shift]
		q, r := u/d, u%d
		if r >= d-r { // r >= d/2, without losing the half of an odd d
			q++
		}
		return decimal128.FromU64(q), true
	}
	return decimal128.FromU64(u), true
}

// numericText is a numeric's value as text, for messages.
func numericText(v []byte) string {
	nd := int(be.Uint16(v))
	weight := int(int16(be.Uint16(v[2:])))
	b := new(big.Int)
	for i := range nd {
		b.Mul(b, big.NewInt(10000))
		b.Add(b, big.NewInt(int64(be.Uint16(v[8+2*i:]))))
	}
	exp := 4 * (weight - nd + 1)
	digits := b.String()
	switch {
	case exp >= 0:
		digits += strings.Repeat("0", exp)
	default:
		if len(digits) <= -exp {
			digits = strings.Repeat("0", -exp-len(digits)+1) + digits
		}
		cut := len(digits) + exp
		digits = strings.TrimRight(digits[:cut]+"."+digits[cut:], "0")
		digits = strings.TrimSuffix(digits, ".")
	}
	if be.Uint16(v[4:]) == 0x4000 {
		digits = "-" + digits
	}
	return digits
}

type stringReader struct {
	b     *array.BinaryBuilder
	jsonb bool
}

func (r stringReader) value(v []byte) error {
	if r.jsonb {
		if len(v) == 0 || v[0] != 1 {
			return errors.New("a jsonb value of an unknown version")
		}
		v = v[1:]
	}
	r.b.Append(v)
	return nil
}

type binaryReader struct{ b *array.BinaryBuilder }

func (r binaryReader) value(v []byte) error {
	r.b.Append(v)
	return nil
}

type dateReader struct{ b *array.Date32Builder }

func (r dateReader) value(v []byte) error {
	if len(v) != 4 {
		return errBadValue
	}
	d := int32(be.Uint32(v))
	if d == math.MaxInt32 || d == math.MinInt32 {
		return errors.New("infinity has no DATE value")
	}
	r.b.Append(arrow.Date32(d + pgEpochDays))
	return nil
}

type timeReader struct {
	b   *array.Time32Builder
	per int64
}

func (r timeReader) value(v []byte) error {
	if len(v) != 8 {
		return errBadValue
	}
	r.b.Append(arrow.Time32(int64(be.Uint64(v)) / r.per))
	return nil
}

type timestampReader struct {
	b    *array.TimestampBuilder
	unit arrow.TimeUnit
}

// The microseconds of PostgreSQL's epoch after Unix's.
const pgEpochMicros = pgEpochSeconds * 1e6

func (r timestampReader) value(v []byte) error {
	if len(v) != 8 {
		return errBadValue
	}
	us := int64(be.Uint64(v))
	if us == math.MaxInt64 || us == math.MinInt64 {
		return errors.New("infinity has no TIMESTAMP value")
	}
	us += pgEpochMicros
	var t int64
	switch r.unit {
	case arrow.Second:
		t = floorDiv(us, 1e6)
	case arrow.Millisecond:
		t = floorDiv(us, 1e3)
	case arrow.Microsecond:
		t = us
	default:
		if us > math.MaxInt64/1000 || us < math.MinInt64/1000 {
			return errors.New("a timestamp outside the years 1677 to 2262, which TIMESTAMP(9) holds")
		}
		t = us * 1000
	}
	r.b.Append(arrow.Timestamp(t))
	return nil
}

// floorDiv is a / b rounded down: a time before 1970 is cut towards the
// past, as a time after it.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// listReader reads a one-dimensional PostgreSQL array: its header (the
// dimensions, a flag, the element type), then each element's length (-1
// for NULL) and value.
type listReader struct {
	b    *array.ListBuilder
	vb   array.Builder
	elem valueReader
	oid  uint32
}

func (r *listReader) value(v []byte) error {
	if len(v) < 12 {
		return errBadValue
	}
	ndim := int32(be.Uint32(v))
	if uint32(be.Uint32(v[8:])) != r.oid {
		return errBadValue
	}
	r.b.Append(true)
	if ndim == 0 {
		return nil
	}
	if ndim != 1 {
		return fmt.Errorf("an array of %d dimensions; an ARRAY column reads one-dimensional arrays", ndim)
	}
	if len(v) < 20 {
		return errBadValue
	}
	n := int(int32(be.Uint32(v[12:])))
	v = v[20:]
	for range n {
		if len(v) < 4 {
			return errBadValue
		}
		l := int(int32(be.Uint32(v)))
		v = v[4:]
		if l < 0 {
			r.vb.AppendNull()
			continue
		}
		if len(v) < l {
			return errBadValue
		}
		if err := r.elem.value(v[:l]); err != nil {
			return err
		}
		v = v[l:]
	}
	return nil
}
