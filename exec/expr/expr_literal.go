package expr

import (
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/scalartext"
)

// Literal is a constant. The field that holds the value depends on Type:
// Int for integers, BOOLEAN (0 or 1), DATE (days), TIME and TIMESTAMP
// (milliseconds); Float for FLOAT and DOUBLE; Str for STRING; Dec for
// DECIMAL. Null makes it a typed NULL.
//
// Eval hands out slices of one constant column kept in Go memory (not the
// query's allocator: a constant owns no accounted memory and is never
// released), grown when a longer batch comes, so a literal costs no
// allocation per batch beyond the array header.
type Literal struct {
	Type  arrow.DataType
	Null  bool
	Int   int64
	Float float64
	Str   string
	Dec   decimal128.Num

	column atomic.Pointer[array.Data]
}

// NullLiteral is a NULL of type dt.
func NullLiteral(dt arrow.DataType) *Literal { return &Literal{Type: dt, Null: true} }

func (l *Literal) DataType() arrow.DataType { return l.Type }

func (l *Literal) Eval(rec arrow.RecordBatch, _ memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	d := l.column.Load()
	if d == nil || d.Len() < n {
		size := max(n, 1024)
		if d != nil {
			size = max(n, 2*d.Len())
		}
		if l.Type.ID() == arrow.STRING && !l.Null {
			if int64(n)*int64(len(l.Str)) > MaxStringColumnBytes {
				return nil, stringLimitError(fmt.Sprintf("a string constant of %d bytes", len(l.Str)), n)
			}
			if int64(size)*int64(len(l.Str)) > constantColumnBytes {
				size = n // a long string: no rows to spare
			}
		}
		arr := l.build(size)
		d = arr.Data().(*array.Data)
		d.Retain()
		arr.Release()
		l.column.Store(d)
	}
	s := array.NewSliceData(d, 0, int64(n))
	defer s.Release()
	return array.MakeFromData(s), nil
}

// constantColumnBytes bounds the spare rows a string constant's column is
// grown by: beyond it the column holds just the batch's rows.
const constantColumnBytes = 1 << 20

// goMem backs constant columns: Go memory, collected when unused.
var goMem = memory.NewGoAllocator()

func (l *Literal) build(n int) arrow.Array {
	if l.Null {
		return array.MakeArrayOfNull(goMem, l.Type, n)
	}
	b := array.NewBuilder(goMem, l.Type)
	defer b.Release()
	b.Reserve(n)
	switch b := b.(type) {
	case *array.BooleanBuilder:
		for range n {
			b.UnsafeAppend(l.Int != 0)
		}
	case *array.Int8Builder:
		for range n {
			b.UnsafeAppend(int8(l.Int))
		}
	case *array.Int16Builder:
		for range n {
			b.UnsafeAppend(int16(l.Int))
		}
	case *array.Int32Builder:
		for range n {
			b.UnsafeAppend(int32(l.Int))
		}
	case *array.Int64Builder:
		for range n {
			b.UnsafeAppend(l.Int)
		}
	case *array.Float32Builder:
		for range n {
			b.UnsafeAppend(float32(l.Float))
		}
	case *array.Float64Builder:
		for range n {
			b.UnsafeAppend(l.Float)
		}
	case *array.StringBuilder:
		b.ReserveData(n * len(l.Str))
		for range n {
			b.Append(l.Str)
		}
	case *array.BinaryBuilder: // BYTES: the bytes are in Str
		b.ReserveData(n * len(l.Str))
		for range n {
			b.AppendString(l.Str)
		}
	case *array.Decimal128Builder:
		for range n {
			b.UnsafeAppend(l.Dec)
		}
	case *array.Date32Builder:
		for range n {
			b.UnsafeAppend(arrow.Date32(l.Int))
		}
	case *array.Time32Builder:
		for range n {
			b.UnsafeAppend(arrow.Time32(l.Int))
		}
	case *array.TimestampBuilder:
		for range n {
			b.UnsafeAppend(arrow.Timestamp(l.Int))
		}
	case *array.DurationBuilder: // a day-time interval: milliseconds in Int
		for range n {
			b.UnsafeAppend(arrow.Duration(l.Int))
		}
	case *array.MonthIntervalBuilder: // a year-month interval: months in Int
		for range n {
			b.UnsafeAppend(arrow.MonthInterval(l.Int))
		}
	default:
		panic(fmt.Sprintf("exec: literal of type %s", l.Type))
	}
	return b.NewArray()
}

func (l *Literal) String() string {
	if l.Null {
		return "NULL"
	}
	switch l.Type.ID() {
	case arrow.STRING:
		return "'" + l.Str + "'"
	case arrow.BINARY:
		return "X" + string(format.AppendBytesLiteral(nil, []byte(l.Str))[1:])
	case arrow.BOOL:
		if l.Int != 0 {
			return "TRUE"
		}
		return "FALSE"
	case arrow.FLOAT32:
		return string(scalartext.AppendFloatValue(nil, l.Float, 32))
	case arrow.FLOAT64:
		return string(scalartext.AppendFloatValue(nil, l.Float, 64))
	case arrow.DECIMAL128:
		return l.Dec.ToString(l.Type.(*arrow.Decimal128Type).Scale)
	case arrow.DATE32:
		return "DATE '" + string(format.AppendDateValue(nil, l.Int)) + "'"
	case arrow.TIMESTAMP:
		ts := "TIMESTAMP '"
		if l.Type.(*arrow.TimestampType).TimeZone != "" {
			ts = "TIMESTAMP_LTZ '"
		}
		return ts + string(format.AppendTimestampValue(nil, l.Int, l.Type.(*arrow.TimestampType).Unit, false, nil)) + "'"
	case arrow.TIME32:
		unit := l.Type.(*arrow.Time32Type).Unit
		return "TIME '" + string(format.AppendTimeOfDayValue(nil, l.Int*int64(unit.Multiplier()), unit)) + "'"
	case arrow.DURATION, arrow.INTERVAL_MONTHS:
		return "INTERVAL '" + string(format.AppendValue(nil, l.build(1), 0, nil)) + "'"
	}
	return strconv.FormatInt(l.Int, 10)
}

// LiteralAt returns row i of a as a literal.
func LiteralAt(a arrow.Array, i int) *Literal {
	l := &Literal{Type: a.DataType()}
	if a.IsNull(i) {
		l.Null = true
		return l
	}
	switch a := a.(type) {
	case *array.Boolean:
		l.Int = int64(b2u(a.Value(i)))
	case *array.Int8:
		l.Int = int64(a.Value(i))
	case *array.Int16:
		l.Int = int64(a.Value(i))
	case *array.Int32:
		l.Int = int64(a.Value(i))
	case *array.Int64:
		l.Int = a.Value(i)
	case *array.Float32:
		l.Float = float64(a.Value(i))
	case *array.Float64:
		l.Float = a.Value(i)
	case *array.String:
		l.Str = a.Value(i)
	case *array.Binary:
		l.Str = string(a.Value(i))
	case *array.Decimal128:
		l.Dec = a.Value(i)
	case *array.Date32:
		l.Int = int64(a.Value(i))
	case *array.Time32:
		l.Int = int64(a.Value(i))
	case *array.Timestamp:
		l.Int = int64(a.Value(i))
	case *array.Duration:
		l.Int = int64(a.Value(i))
	case *array.MonthInterval:
		l.Int = int64(a.Value(i))
	case *array.Null:
		l.Null = true
	}
	return l
}

// Fold evaluates an expression that reads no column once and returns its
// value as a literal, so constant arguments (a format, a pattern, a
// timestamp written as text) are computed at compile time, not per row.
func Fold(e Expr) (*Literal, error) {
	if l, ok := e.(*Literal); ok {
		return l, nil
	}
	rec := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer rec.Release()
	a, err := e.Eval(rec, goMem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return LiteralAt(a, 0), nil
}
