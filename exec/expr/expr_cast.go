package expr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/exec/expr/datepattern"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/intervaltext"
	"github.com/wsql/wsql/exec/format/scalartext"
	"github.com/wsql/wsql/rowtime"
)

// Cast is CAST(X AS To) with Flink's (1.15+) rules:
//
//   - numbers to numbers: integers narrow by wrapping; floats to integers
//     truncate toward zero, saturate, NaN → 0 (Java's (int)/(long) casts);
//     to DECIMAL rounds half up and gives NULL when the value does not fit.
//   - numbers to BOOLEAN: non-zero is TRUE; BOOLEAN to numbers: 1 or 0.
//   - anything to STRING: the text result writers print, BOOLEAN as
//     TRUE/FALSE, TIMESTAMP_LTZ in the session zone Loc.
//   - STRING to anything: the text with surrounding blanks trimmed; text that
//     is not a value of the type fails the query (Flink throws), or with
//     Try (TRY_CAST) is NULL. Integers accept a fraction and truncate it, as Flink's
//     string-to-integer parser does. A number too large for the DECIMAL is
//     NULL, as from other numbers.
//   - TIMESTAMP ↔ DATE, TIMESTAMP ↔ TIMESTAMP_LTZ (wall time in Loc),
//     TIMESTAMP_LTZ → DATE (the date in Loc).
type Cast struct {
	X   Expr
	To  arrow.DataType
	Loc *time.Location // session zone for TIMESTAMP_LTZ; nil is UTC
	Try bool           // TRY_CAST: NULL where the text does not convert
}

func (e *Cast) DataType() arrow.DataType { return e.To }
func (e *Cast) String() string           { return fmt.Sprintf("CAST(%s AS %s)", e.X, e.To) }
func (e *Cast) children() []Expr         { return []Expr{e.X} }

func (e *Cast) canFail() bool {
	return !e.Try && e.X.DataType().ID() == arrow.STRING && e.To.ID() != arrow.STRING
}

func (e *Cast) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	if arrow.TypeEqual(x.DataType(), e.To) {
		x.Retain()
		return x, nil
	}
	if isText(e.To) && isText(x.DataType()) {
		return castBinaryText(x, e.To, mem), nil
	}
	if e.To.ID() == arrow.STRING {
		return e.toString(x, mem)
	}
	if s, ok := x.(*array.String); ok {
		return e.fromString(s, mem)
	}
	from, to := x.DataType(), e.To
	switch {
	case isTimeType(from) || isTimeType(to):
		return e.castTime(x, mem)
	case to.ID() == arrow.DECIMAL128:
		return e.toDecimal(x, mem)
	case to.ID() == arrow.BOOL:
		return castToBool(x, mem)
	}
	validity, nulls := andValidity(mem, x.Len(), x)
	var vals *memory.Buffer
	switch to.ID() {
	case arrow.INT8:
		vals, err = castNumbers[int8](x, mem)
	case arrow.INT16:
		vals, err = castNumbers[int16](x, mem)
	case arrow.INT32:
		vals, err = castNumbers[int32](x, mem)
	case arrow.INT64:
		vals, err = castNumbers[int64](x, mem)
	case arrow.FLOAT32:
		vals, err = castNumbers[float32](x, mem)
	case arrow.FLOAT64:
		vals, err = castNumbers[float64](x, mem)
	default:
		err = fmt.Errorf("CAST from %s to %s is not supported", from, to)
	}
	if err != nil {
		if validity != nil {
			validity.Release()
		}
		return nil, err
	}
	return NewArray(to, x.Len(), validity, nulls, vals), nil
}

func isTimeType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.TIMESTAMP, arrow.DATE32, arrow.TIME32:
		return true
	}
	return false
}

// castNumbers converts any number or BOOLEAN column to D.
func castNumbers[D number](x arrow.Array, mem memory.Allocator) (*memory.Buffer, error) {
	buf, out := NewValues[D](mem, x.Len())
	switch a := x.(type) {
	case *array.Int8:
		convertInts(a.Int8Values(), out)
	case *array.Int16:
		convertInts(a.Int16Values(), out)
	case *array.Int32:
		convertInts(a.Int32Values(), out)
	case *array.Int64:
		convertInts(a.Int64Values(), out)
	case *array.Float32:
		convertFloats(a.Float32Values(), out)
	case *array.Float64:
		convertFloats(a.Float64Values(), out)
	case *array.Boolean:
		for i := range out {
			out[i] = D(b2u(a.Value(i)))
		}
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		var z D
		isInt := false
		switch any(z).(type) {
		case int8, int16, int32, int64:
			isInt = true
		}
		div := decimal128.GetScaleMultiplier(int(scale))
		for i, v := range a.Values() {
			if isInt {
				q, _ := v.Div(div) // truncates toward zero
				out[i] = D(int64(q.LowBits()))
			} else {
				out[i] = D(decimalToFloat(v, scale))
			}
		}
	default:
		buf.Release()
		return nil, fmt.Errorf("CAST from %s to a number is not supported", x.DataType())
	}
	return buf, nil
}

func convertInts[S integer, D number](in []S, out []D) {
	for i, v := range in {
		out[i] = D(v)
	}
}

// convertFloats is Java's float-to-number conversion: to an integer type it
// goes through int (or long), saturating and mapping NaN to 0, then wraps to
// the narrower type; Go leaves out-of-range conversions undefined.
func convertFloats[S float, D number](in []S, out []D) {
	var z D
	switch any(z).(type) {
	case float32, float64:
		for i, v := range in {
			out[i] = D(v)
		}
	case int64:
		for i, v := range in {
			out[i] = D(floatToInt64(float64(v)))
		}
	default:
		for i, v := range in {
			out[i] = D(floatToInt32(float64(v)))
		}
	}
}

func floatToInt64(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

func floatToInt32(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

func castToBool(x arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	n := x.Len()
	vals := make([]byte, (n+7)/8)
	set := func(i int, b bool) {
		if b {
			vals[i>>3] |= 1 << (i & 7)
		}
	}
	switch a := x.(type) {
	case *array.Int8:
		for i, v := range a.Int8Values() {
			set(i, v != 0)
		}
	case *array.Int16:
		for i, v := range a.Int16Values() {
			set(i, v != 0)
		}
	case *array.Int32:
		for i, v := range a.Int32Values() {
			set(i, v != 0)
		}
	case *array.Int64:
		for i, v := range a.Int64Values() {
			set(i, v != 0)
		}
	case *array.Float32:
		for i, v := range a.Float32Values() {
			set(i, v != 0)
		}
	case *array.Float64:
		for i, v := range a.Float64Values() {
			set(i, v != 0)
		}
	case *array.Decimal128:
		for i, v := range a.Values() {
			set(i, v.Sign() != 0)
		}
	default:
		return nil, fmt.Errorf("CAST from %s to BOOLEAN is not supported", x.DataType())
	}
	valid := make([]byte, len(vals))
	copyValidity(valid, x)
	return newBool(mem, n, vals, valid), nil
}

func (e *Cast) toDecimal(x arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	dt := e.To.(*arrow.Decimal128Type)
	b := array.NewDecimal128Builder(mem, dt)
	defer b.Release()
	n := x.Len()
	b.Reserve(n)
	put := func(v decimal128.Num, ok bool) {
		if ok && v.FitsInPrecision(dt.Precision) {
			b.UnsafeAppend(v)
		} else {
			b.UnsafeAppendBoolToBitmap(false)
		}
	}
	for i := range n {
		if x.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		switch a := x.(type) {
		case *array.Int8:
			put(format.DecimalFromInt(int64(a.Value(i)), dt.Scale))
		case *array.Int16:
			put(format.DecimalFromInt(int64(a.Value(i)), dt.Scale))
		case *array.Int32:
			put(format.DecimalFromInt(int64(a.Value(i)), dt.Scale))
		case *array.Int64:
			put(format.DecimalFromInt(a.Value(i), dt.Scale))
		case *array.Float32:
			put(format.FloatToDecimal(float64(a.Value(i)), 32, dt.Scale))
		case *array.Float64:
			put(format.FloatToDecimal(a.Value(i), 64, dt.Scale))
		case *array.Decimal128:
			put(format.RescaleDecimal(a.Value(i), a.DataType().(*arrow.Decimal128Type).Scale, dt.Scale))
		default:
			return nil, fmt.Errorf("CAST from %s to %s is not supported", x.DataType(), e.To)
		}
	}
	return b.NewArray(), nil
}

func (e *Cast) toString(x arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	n := x.Len()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	var buf []byte
	loc := e.Loc
	if loc == nil {
		loc = time.UTC
	}
	bm, off := nullBitmap(x)
	var nested func([]byte, int) []byte // a ROW, ARRAY, MAP, MULTISET or interval: Flink's text of it
	if format.IsNestedType(x.DataType()) || intervaltext.IsInterval(x.DataType()) {
		nested = format.ValueAppender(x, loc)
	}
	for i := range n {
		if !validAt(bm, off, i) {
			b.AppendNull()
			continue
		}
		buf = buf[:0]
		if nested != nil {
			b.BinaryBuilder.Append(nested(buf, i))
			continue
		}
		switch a := x.(type) {
		case *array.Boolean:
			if a.Value(i) {
				buf = append(buf, "TRUE"...)
			} else {
				buf = append(buf, "FALSE"...)
			}
		case *array.Int8:
			buf = strconv.AppendInt(buf, int64(a.Value(i)), 10)
		case *array.Int16:
			buf = strconv.AppendInt(buf, int64(a.Value(i)), 10)
		case *array.Int32:
			buf = strconv.AppendInt(buf, int64(a.Value(i)), 10)
		case *array.Int64:
			buf = strconv.AppendInt(buf, a.Value(i), 10)
		case *array.Float32:
			buf = scalartext.AppendFloatValue(buf, float64(a.Value(i)), 32)
		case *array.Float64:
			buf = scalartext.AppendFloatValue(buf, a.Value(i), 64)
		case *array.Decimal128:
			buf = format.AppendDecimal128Value(buf, a.Value(i), a.DataType().(*arrow.Decimal128Type).Scale)
		case *array.Date32:
			buf = format.AppendDateValue(buf, int64(a.Value(i)))
		case *array.Time32:
			unit := a.DataType().(*arrow.Time32Type).Unit
			buf = format.AppendTimeOfDayValue(buf, int64(a.Value(i))*int64(unit.Multiplier()), unit)
		case *array.Timestamp:
			tt := a.DataType().(*arrow.TimestampType)
			buf = format.AppendTimestampValue(buf, int64(a.Value(i)), tt.Unit, tt.TimeZone != "", loc)
		default:
			return nil, fmt.Errorf("CAST from %s to STRING is not supported", x.DataType())
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

// Layouts CAST reads timestamps with: Flink accepts a date alone, a
// minute-precision time, a 'T' separator, and any fraction.
var castTimestampLayouts = func() []*datepattern.Layout {
	var out []*datepattern.Layout
	for _, f := range []string{DefaultTimestampFormat, "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"} {
		l, err := datepattern.Compile(f)
		if err != nil {
			panic(err)
		}
		if strings.HasSuffix(f, "ss") {
			l.AcceptFraction()
		}
		out = append(out, l)
	}
	return out
}()

// parseTimestampText reads a timestamp as CAST does, as UTC wall-clock ms.
func parseTimestampText(s string) (int64, bool) {
	for _, l := range castTimestampLayouts {
		if ms, ok := l.Parse(s); ok {
			return ms, true
		}
	}
	return 0, false
}

func (e *Cast) fromString(s *array.String, mem memory.Allocator) (arrow.Array, error) {
	n := s.Len()
	b := array.NewBuilder(mem, e.To)
	defer b.Release()
	b.Reserve(n)
	var local *rowtime.LocalTime
	if tt, ok := e.To.(*arrow.TimestampType); ok && tt.TimeZone != "" {
		local = rowtime.NewLocalTime(e.Loc)
	}
	var digits []byte // scratch of the DECIMAL parser
	var bad []int     // TRY_CAST's rows that did not convert
	for i := range n {
		if s.IsNull(i) {
			b.AppendNull()
			continue
		}
		text := strings.TrimSpace(s.Value(i))
		ok := true
		switch b := b.(type) {
		case *array.Int8Builder:
			var v int64
			v, ok = parseIntText(text, math.MinInt8, math.MaxInt8)
			b.UnsafeAppend(int8(v))
		case *array.Int16Builder:
			var v int64
			v, ok = parseIntText(text, math.MinInt16, math.MaxInt16)
			b.UnsafeAppend(int16(v))
		case *array.Int32Builder:
			var v int64
			v, ok = parseIntText(text, math.MinInt32, math.MaxInt32)
			b.UnsafeAppend(int32(v))
		case *array.Int64Builder:
			var v int64
			v, ok = parseIntText(text, math.MinInt64, math.MaxInt64)
			b.UnsafeAppend(v)
		case *array.Float32Builder:
			v, err := strconv.ParseFloat(text, 32)
			ok = err == nil
			b.UnsafeAppend(float32(v))
		case *array.Float64Builder:
			v, err := strconv.ParseFloat(text, 64)
			ok = err == nil
			b.UnsafeAppend(v)
		case *array.Decimal128Builder:
			dt := e.To.(*arrow.Decimal128Type)
			v, overflow, msg := format.ParseDecimalText(text, dt.Precision, dt.Scale, &digits)
			switch {
			case msg == "":
				b.UnsafeAppend(v)
			case overflow:
				b.UnsafeAppendBoolToBitmap(false) // Flink: NULL when the number does not fit
			default:
				ok = false
			}
		case *array.BooleanBuilder:
			var v bool
			v, ok = parseBoolText(text)
			b.UnsafeAppend(v)
		case *array.Date32Builder:
			var ms int64
			ms, ok = castTimestampLayouts[3].Parse(text)
			b.UnsafeAppend(arrow.Date32(ms / 86_400_000))
		case *array.Time32Builder:
			// Flink's TIME 'HH:mm:ss' and CAST(s AS TIME): a time of day
			nanos, msg := scalartext.ParseTime(text)
			ok = msg == ""
			b.UnsafeAppend(arrow.Time32(nanos / int64(e.To.(*arrow.Time32Type).Unit.Multiplier())))
		case *array.TimestampBuilder:
			var ms int64
			ms, ok = parseTimestampText(text)
			if local != nil {
				ms = local.ToEpoch(ms)
			}
			b.UnsafeAppend(arrow.Timestamp(joinMillis(ms, subMilliNanos(text), e.To.(*arrow.TimestampType).Unit)))
		default:
			return nil, fmt.Errorf("CAST from STRING to %s is not supported", e.To)
		}
		if !ok && !e.Try {
			return nil, fmt.Errorf("%w: CAST(%s AS %s): cannot read %q", ErrEval, e.X, format.SQLTypeName(e.To), s.Value(i))
		}
		if !ok {
			bad = append(bad, i)
		}
	}
	out := b.NewArray()
	if len(bad) == 0 {
		return out, nil
	}
	defer out.Release()
	vb, valid := NewBits(mem, n)
	copyValidity(valid, out)
	for _, i := range bad {
		bitutil.ClearBit(valid, i)
	}
	bufs := out.Data().Buffers()[1:]
	for _, buf := range bufs {
		if buf != nil {
			buf.Retain()
		}
	}
	return NewArray(e.To, n, vb, out.NullN()+len(bad), bufs...), nil
}

// parseIntText reads an integer, accepting and truncating a fraction as
// Flink's BinaryStringDataUtil.toLong does; out of [lo, hi] fails.
func parseIntText(s string, lo, hi int64) (int64, bool) {
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		frac := s[dot+1:]
		for i := 0; i < len(frac); i++ {
			if frac[i] < '0' || frac[i] > '9' {
				return 0, false
			}
		}
		s = s[:dot]
		if s == "" || s == "-" || s == "+" {
			return 0, len(frac) > 0
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, false
	}
	return v, true
}

// parseBoolText is Flink's string-to-boolean rule.
func parseBoolText(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "t", "yes", "y", "1":
		return true, true
	case "false", "f", "no", "n", "0":
		return false, true
	}
	return false, false
}

const msPerDay = 86_400_000
