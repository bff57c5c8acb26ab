package gotable

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/exec/format"
)

// goValue is one Go value converted for a column, before it is appended:
// rows are converted whole first, so a bad value leaves no half-appended
// row behind.
type goValue struct {
	null bool
	i    int64 // integers, timestamps (ms), dates (days), times (ms), booleans
	f    float64
	s    string
	d    decimal128.Num
	kids []goValue // a ROW's fields, an ARRAY's elements, a MAP's keys and values in turn
}

// convertGoValue converts v for field f. Pushing rows from Go is the
// convenience path, one row at a time; programs with volume append Arrow
// batches.
//
//	integer columns    any Go integer that fits
//	FLOAT, DOUBLE      float32, float64, any Go integer
//	DECIMAL(p, s)      a string such as "12.50", float64, float32, any Go integer
//	STRING             string, []byte, fmt.Stringer
//	BOOLEAN            bool
//	TIMESTAMP(_LTZ)(3) time.Time: its instant (TIMESTAMP shows it in UTC)
//	DATE               time.Time: its calendar date in its own location
//	TIME               time.Time's clock in its location, or a time.Duration since midnight
//	INTERVAL DAY TO SECOND  time.Duration (its milliseconds)
//	INTERVAL YEAR TO MONTH  a Go integer: months
//	ROW, ARRAY, MAP    maps, structs and slices (convertNested)
//	any column         nil (or a nil map or slice): NULL, unless the column is NOT NULL
func convertGoValue(v any, f arrow.Field) (goValue, error) {
	if v == nil || isNilPointer(v) {
		if !f.Nullable {
			return goValue{}, fmt.Errorf("column %s is NOT NULL (a rowtime column is) and the value is nil", f.Name)
		}
		return goValue{null: true}, nil
	}
	if p := reflect.ValueOf(v); p.Kind() == reflect.Pointer {
		v = p.Elem().Interface()
	}
	if nv, ok, err := convertNested(v, f); ok {
		return nv, err
	}
	bad := func() (goValue, error) {
		return goValue{}, fmt.Errorf("column %s is %s and cannot take the Go value %v (%T)", f.Name, format.SQLTypeName(f.Type), v, v)
	}
	switch dt := f.Type.(type) {
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type:
		n, ok := goInt(v)
		if !ok {
			return bad()
		}
		bits := dt.(arrow.FixedWidthDataType).BitWidth()
		if lo, hi := -int64(1)<<(bits-1), int64(1)<<(bits-1)-1; bits < 64 && (n < lo || n > hi) {
			return goValue{}, fmt.Errorf("column %s is %s and %d is out of its range", f.Name, format.SQLTypeName(f.Type), n)
		}
		return goValue{i: n}, nil
	case *arrow.Float32Type, *arrow.Float64Type:
		var x float64
		switch y := v.(type) {
		case float64:
			x = y
		case float32:
			x = float64(y)
		default:
			n, ok := goInt(v)
			if !ok {
				return bad()
			}
			x = float64(n)
		}
		// a finite value FLOAT cannot hold would become an infinity
		if _, single := dt.(*arrow.Float32Type); single && !math.IsInf(x, 0) && math.IsInf(float64(float32(x)), 0) {
			return goValue{}, fmt.Errorf("column %s is FLOAT and %v is out of its range; declare it DOUBLE", f.Name, v)
		}
		return goValue{f: x}, nil
	case *arrow.Decimal128Type:
		num, err := goDecimal(v, f, dt)
		if err != nil {
			return goValue{}, err
		}
		return goValue{d: num}, nil
	case *arrow.StringType:
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case []byte:
			s = string(x)
		case fmt.Stringer:
			s = x.String()
		default:
			return bad()
		}
		if !utf8.ValidString(s) {
			return goValue{}, fmt.Errorf("column %s is STRING and %q is not valid UTF-8", f.Name, s)
		}
		return goValue{s: s}, nil
	case *arrow.BooleanType:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		if b {
			return goValue{i: 1}, nil
		}
		return goValue{}, nil
	case *arrow.TimestampType:
		t, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		return goValue{i: goTimestamp(t, dt.Unit)}, nil
	case *arrow.Date32Type:
		t, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		y, m, d := t.Date()
		return goValue{i: time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400}, nil
	case *arrow.Time32Type:
		perUnit := int64(1)
		if dt.Unit == arrow.Second {
			perUnit = 1000 // TIME(0)
		}
		switch x := v.(type) {
		case time.Time:
			h, m, s := x.Clock()
			return goValue{i: int64(((h*60+m)*60+s)*1000+x.Nanosecond()/1e6) / perUnit}, nil
		case time.Duration:
			if x < 0 || x >= 24*time.Hour {
				return goValue{}, fmt.Errorf("column %s is TIME and %v is not a time of day", f.Name, x)
			}
			return goValue{i: x.Milliseconds() / perUnit}, nil
		}
		return bad()
	case *arrow.BinaryType:
		switch x := v.(type) {
		case []byte:
			return goValue{s: string(x)}, nil
		case string:
			return goValue{s: x}, nil // its UTF-8 bytes, as CAST(s AS BYTES)
		}
		return bad()
	case *arrow.DurationType: // a day-time interval: its milliseconds, as Flink keeps it
		if d, ok := v.(time.Duration); ok {
			return goValue{i: d.Milliseconds()}, nil
		}
		return bad()
	case *arrow.MonthIntervalType: // a year-month interval: a number of months
		n, ok := goInt(v)
		if !ok || n < math.MinInt32 || n > math.MaxInt32 {
			return bad()
		}
		return goValue{i: n}, nil
	}
	return goValue{}, fmt.Errorf("column %s of type %s cannot be set from Go yet", f.Name, format.SQLTypeName(f.Type))
}

// goDecimal converts a string (read as the CSV decoder reads it), a float
// (as CAST from DOUBLE does) or an integer for a DECIMAL column.
func goDecimal(v any, f arrow.Field, dt *arrow.Decimal128Type) (decimal128.Num, error) {
	var (
		num decimal128.Num
		ok  bool
	)
	switch x := v.(type) {
	case string:
		var digits []byte
		var msg string
		var overflow bool
		if num, overflow, msg = format.ParseDecimalText(strings.TrimSpace(x), dt.Precision, dt.Scale, &digits); msg != "" && !overflow {
			return num, fmt.Errorf("column %s is %s and cannot take %q: %s", f.Name, format.SQLTypeName(dt), x, msg)
		}
		ok = msg == ""
	case float64, float32:
		bits, fv := 64, 0.0
		if y, single := x.(float32); single {
			bits, fv = 32, float64(y)
		} else {
			fv = x.(float64)
		}
		if math.IsNaN(fv) || math.IsInf(fv, 0) {
			return num, fmt.Errorf("column %s is %s and cannot take %v: a DECIMAL has no NaN or infinity", f.Name, format.SQLTypeName(dt), v)
		}
		num, ok = format.FloatToDecimal(fv, bits, dt.Scale)
	default:
		n, isInt := goInt(v)
		if !isInt {
			return num, fmt.Errorf("column %s is %s and cannot take the Go value %v (%T)", f.Name, format.SQLTypeName(dt), v, v)
		}
		num, ok = format.DecimalFromInt(n, dt.Scale)
	}
	if !ok || !num.FitsInPrecision(dt.Precision) {
		return decimal128.Num{}, fmt.Errorf("column %s is %s and %v does not fit in it", f.Name, format.SQLTypeName(dt), v)
	}
	return num, nil
}

// appendGoValue appends a converted value to the column's builder.
func appendGoValue(b array.Builder, v goValue) {
	if v.null {
		b.AppendNull()
		return
	}
	if appendNested(b, v) {
		return
	}
	switch b := b.(type) {
	case *array.Int8Builder:
		b.Append(int8(v.i))
	case *array.Int16Builder:
		b.Append(int16(v.i))
	case *array.Int32Builder:
		b.Append(int32(v.i))
	case *array.Int64Builder:
		b.Append(v.i)
	case *array.Float32Builder:
		b.Append(float32(v.f))
	case *array.Float64Builder:
		b.Append(v.f)
	case *array.Decimal128Builder:
		b.Append(v.d)
	case *array.StringBuilder:
		b.Append(v.s)
	case *array.BinaryBuilder:
		b.AppendString(v.s)
	case *array.BooleanBuilder:
		b.Append(v.i != 0)
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(v.i))
	case *array.Date32Builder:
		b.Append(arrow.Date32(v.i))
	case *array.Time32Builder:
		b.Append(arrow.Time32(v.i))
	case *array.DurationBuilder:
		b.Append(arrow.Duration(v.i))
	case *array.MonthIntervalBuilder:
		b.Append(arrow.MonthInterval(v.i))
	default:
		panic(fmt.Sprintf("appendGoValue: unexpected builder %T", b)) // convertGoValue refused the type
	}
}

// goInt reads any Go integer; unsigned values above MaxInt64 do not fit.
func goInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint:
		return int64(x), x <= math.MaxInt64
	case uint64:
		return int64(x), x <= math.MaxInt64
	}
	return 0, false
}

// isNilPointer is true for a nil pointer, and a nil map or slice (as
// encoding/json writes null for them).
func isNilPointer(v any) bool {
	p := reflect.ValueOf(v)
	switch p.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		return p.IsNil()
	}
	return false
}

// structColumns maps the table's columns to the fields of a struct type:
// the field tagged `wsql:"name"`, else the exported field whose name equals
// the column's, ignoring case. A tag of "-" skips a field. Columns without
// a field are NULL. Mappings are cached per type.
type structColumns struct {
	fields []int // per column: the struct field index, or -1
}

var structCache sync.Map // structKey → *structColumns

type structKey struct {
	t      reflect.Type
	schema *arrow.Schema
}

func columnsOfStruct(t reflect.Type, schema *arrow.Schema) (*structColumns, error) {
	key := structKey{t, schema}
	if c, ok := structCache.Load(key); ok {
		return c.(*structColumns), nil
	}
	c := &structColumns{fields: make([]int, schema.NumFields())}
	used := 0
	for i, col := range schema.Fields() {
		c.fields[i] = -1
		if j, ok := StructField(t, col.Name); ok {
			c.fields[i] = j
			used++
		}
	}
	if used == 0 {
		return nil, fmt.Errorf("struct %s has no field for any of the table's columns (%s); name fields like the columns or tag them `wsql:\"column\"`", t, fieldList(schema))
	}
	structCache.Store(key, c)
	return c, nil
}

// StructField finds the field of struct type t that column goes to or
// comes from: the exported field tagged `wsql:"column"`, or else the one
// named like the column, ignoring case as encoding/json does; a field
// tagged `wsql:"-"` has no column. Pushed structs and scanned rows
// (Rows.ScanStruct) share the rule.
func StructField(t reflect.Type, column string) (int, bool) {
	for j := 0; j < t.NumField(); j++ {
		sf := t.Field(j)
		if !sf.IsExported() {
			continue
		}
		name := sf.Name
		if tag, ok := sf.Tag.Lookup("wsql"); ok {
			if tag == "-" {
				continue
			}
			name = tag
		}
		if strings.EqualFold(name, column) {
			return j, true
		}
	}
	return -1, false
}
