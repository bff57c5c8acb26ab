package wsql

import (
	"database/sql"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

var (
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
	scannerType  = reflect.TypeFor[sql.Scanner]()
)

// scanColumn sets dst, a settable value, to column c of the current row;
// field names the struct field dst is, "" for an argument of Scan.
func (r *Rows) scanColumn(dst reflect.Value, c int, field string) error {
	cur := &r.scan
	return r.assignValue(dst, cur.read[c](cur.row), c, field)
}

func (r *Rows) assignValue(dst reflect.Value, v any, c int, field string) error {
	t := dst.Type()
	if dst.CanAddr() && reflect.PointerTo(t).Implements(scannerType) {
		if err := dst.Addr().Interface().(sql.Scanner).Scan(v); err != nil {
			return fmt.Errorf("wsql: column %q (%s) into %s: %w", r.schema.Field(c).Name, r.columnType(c), r.into(t, field), err)
		}
		return nil
	}
	switch {
	case t.Kind() == reflect.Interface:
		if v == nil {
			dst.SetZero()
			return nil
		}
		if reflect.TypeOf(v).AssignableTo(t) {
			dst.Set(reflect.ValueOf(v))
			return nil
		}
		return r.mismatch(t, c, field)
	case t.Kind() == reflect.Pointer:
		if v == nil {
			dst.SetZero()
			return nil
		}
		p := reflect.New(t.Elem())
		if err := r.assignValue(p.Elem(), v, c, field); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case v == nil && (t.Kind() == reflect.Map || (t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8)):
		dst.SetZero() // a NULL ARRAY, MAP or MULTISET: a nil slice or map
		return nil
	case v == nil:
		return fmt.Errorf("wsql: column %q (%s) is NULL in this row, which %s cannot hold; scan it into a pointer (*%s), a sql.Null type or any",
			r.schema.Field(c).Name, r.columnType(c), r.into(t, field), t)
	case t == timeType:
		if tv, ok := v.(time.Time); ok {
			dst.Set(reflect.ValueOf(tv))
			return nil
		}
		return r.mismatch(t, c, field)
	case t == durationType:
		if d, ok := v.(time.Duration); ok { // a day-time interval
			dst.Set(reflect.ValueOf(d))
			return nil
		}
		return r.mismatch(t, c, field)
	}
	if done, err := r.assignNested(dst, v, c, field); done {
		return err
	}
	switch t.Kind() {
	case reflect.String:
		if s, ok := v.(string); ok {
			dst.SetString(s)
		} else {
			dst.SetString(ValueText(r.scan.cols[c], r.scan.row, r.loc))
		}
		return nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // []byte: BYTES as they are, else the text, copied
			if b, ok := v.([]byte); ok {
				dst.SetBytes(b) // govalue's copy
				return nil
			}
			text, ok := v.(string)
			if !ok {
				text = ValueText(r.scan.cols[c], r.scan.row, r.loc)
			}
			dst.SetBytes([]byte(text))
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := v.(int64); ok {
			if dst.OverflowInt(n) {
				return r.outOfRange(v, t, c, field)
			}
			dst.SetInt(n)
			return nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := v.(int64); ok {
			if n < 0 || dst.OverflowUint(uint64(n)) {
				return r.outOfRange(v, t, c, field)
			}
			dst.SetUint(uint64(n))
			return nil
		}
	case reflect.Float32, reflect.Float64:
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		case int64:
			f = float64(x)
		case string: // DECIMAL's exact text
			if !r.isDecimal(c) {
				return r.mismatch(t, c, field)
			}
			var err error
			if f, err = strconv.ParseFloat(x, 64); err != nil {
				return r.mismatch(t, c, field)
			}
		default:
			return r.mismatch(t, c, field)
		}
		if t.Kind() == reflect.Float32 && dst.OverflowFloat(f) {
			return r.outOfRange(v, t, c, field)
		}
		dst.SetFloat(f)
		return nil
	case reflect.Bool:
		if b, ok := v.(bool); ok {
			dst.SetBool(b)
			return nil
		}
	}
	return r.mismatch(t, c, field)
}

func (r *Rows) columnType(c int) string { return columnTypeName(r.schema.Field(c)) }

func (r *Rows) isDecimal(c int) bool {
	switch r.schema.Field(c).Type.ID() {
	case arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	}
	return false
}

// into names what a value goes into: a Go type, or a struct's field.
func (r *Rows) into(t reflect.Type, field string) string {
	if field == "" {
		return t.String()
	}
	return fmt.Sprintf("field %s (%s)", field, t)
}

func (r *Rows) mismatch(t reflect.Type, c int, field string) error {
	return fmt.Errorf("wsql: column %q is %s, which does not scan into %s", r.schema.Field(c).Name, r.columnType(c), r.into(t, field))
}

func (r *Rows) outOfRange(v any, t reflect.Type, c int, field string) error {
	return fmt.Errorf("wsql: column %q (%s) holds %v, which does not fit %s", r.schema.Field(c).Name, r.columnType(c), v, r.into(t, field))
}
