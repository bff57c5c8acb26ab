package exec

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

var errDoesNotFit = errors.New("does not fit")

// goValue is one Go value converted for a column, before it is appended:
// rows are converted whole first, so a bad value leaves no half-appended
// row behind.
type goValue struct {
	null bool
	i    int64 // integers, timestamps (ms), dates (days), times (ms), booleans
	f    float64
	s    string
	d    decimal128.Num
}

// convertGoValue converts v for field f. Pushing rows from Go is the
// convenience path, one row at a time; programs with volume append Arrow
// batches.
//
//	integer columns    any Go integer that fits
//	FLOAT, DOUBLE      float32, float64, any Go integer
//	DECIMAL(p, s)      a string such as "12.50", float64, any Go integer
//	STRING             string, []byte, fmt.Stringer
//	BOOLEAN            bool
//	TIMESTAMP(_LTZ)(3) time.Time: its instant (TIMESTAMP shows it in UTC)
//	DATE               time.Time: its calendar date in its own location
//	TIME               time.Time's clock in its location, or a time.Duration since midnight
//	any column         nil: NULL, unless the column is NOT NULL
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
	bad := func() (goValue, error) {
		return goValue{}, fmt.Errorf("column %s is %s and cannot take the Go value %v (%T)", f.Name, SQLTypeName(f.Type), v, v)
	}
	switch dt := f.Type.(type) {
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type:
		n, ok := goInt(v)
		if !ok {
			return bad()
		}
		bits := dt.(arrow.FixedWidthDataType).BitWidth()
		if lo, hi := -int64(1)<<(bits-1), int64(1)<<(bits-1)-1; bits < 64 && (n < lo || n > hi) {
			return goValue{}, fmt.Errorf("column %s is %s and %d is out of its range", f.Name, SQLTypeName(f.Type), n)
		}
		return goValue{i: n}, nil
	case *arrow.Float32Type, *arrow.Float64Type:
		switch x := v.(type) {
		case float64:
			return goValue{f: x}, nil
		case float32:
			return goValue{f: float64(x)}, nil
		}
		if n, ok := goInt(v); ok {
			return goValue{f: float64(n)}, nil
		}
		return bad()
	case *arrow.Decimal128Type:
		var num decimal128.Num
		var err error
		switch x := v.(type) {
		case string:
			num, err = decimal128.FromString(x, dt.Precision, dt.Scale)
		case float64:
			num, err = decimal128.FromFloat64(x, dt.Precision, dt.Scale)
		default:
			n, ok := goInt(v)
			if !ok {
				return bad()
			}
			num, err = decimal128.FromI64(n).Rescale(0, dt.Scale)
			if err == nil && !num.FitsInPrecision(dt.Precision) {
				err = errDoesNotFit
			}
		}
		if err != nil {
			return goValue{}, fmt.Errorf("column %s is %s and %v does not fit in it", f.Name, SQLTypeName(f.Type), v)
		}
		return goValue{d: num}, nil
	case *arrow.StringType:
		switch x := v.(type) {
		case string:
			return goValue{s: x}, nil
		case []byte:
			return goValue{s: string(x)}, nil
		case fmt.Stringer:
			return goValue{s: x.String()}, nil
		}
		return bad()
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
		return goValue{i: t.UnixMilli()}, nil
	case *arrow.Date32Type:
		t, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		y, m, d := t.Date()
		return goValue{i: time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400}, nil
	case *arrow.Time32Type:
		switch x := v.(type) {
		case time.Time:
			h, m, s := x.Clock()
			return goValue{i: int64(((h*60+m)*60+s)*1000 + x.Nanosecond()/1e6)}, nil
		case time.Duration:
			if x < 0 || x >= 24*time.Hour {
				return goValue{}, fmt.Errorf("column %s is TIME and %v is not a time of day", f.Name, x)
			}
			return goValue{i: x.Milliseconds()}, nil
		}
		return bad()
	}
	return goValue{}, fmt.Errorf("column %s of type %s cannot be set from Go yet", f.Name, SQLTypeName(f.Type))
}

// appendGoValue appends a converted value to the column's builder.
func appendGoValue(b array.Builder, v goValue) {
	if v.null {
		b.AppendNull()
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
	case *array.BooleanBuilder:
		b.Append(v.i != 0)
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(v.i))
	case *array.Date32Builder:
		b.Append(arrow.Date32(v.i))
	case *array.Time32Builder:
		b.Append(arrow.Time32(v.i))
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

func isNilPointer(v any) bool {
	p := reflect.ValueOf(v)
	return p.Kind() == reflect.Pointer && p.IsNil()
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
			if strings.EqualFold(name, col.Name) {
				c.fields[i] = j
				used++
				break
			}
		}
	}
	if used == 0 {
		return nil, fmt.Errorf("struct %s has no field for any of the table's columns (%s); name fields like the columns or tag them `wsql:\"column\"`", t, fieldList(schema))
	}
	structCache.Store(key, c)
	return c, nil
}
