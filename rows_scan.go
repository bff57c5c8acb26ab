package wsql

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/connector/gotable"
	"github.com/wsql/wsql/exec/govalue"
	"github.com/wsql/wsql/planner"
)

// rowCursor is where NextRow stands in the batches of a Rows: the row,
// and each column's conversion to Go values, chosen once per batch.
type rowCursor struct {
	batch   RecordBatch // the batch the columns below belong to
	row, n  int
	cols    []arrow.Array
	read    []func(int) any
	structs map[reflect.Type][]int // field per column, for ScanStruct and Collect
}

// NextRow advances to the next row, taking the next batch (see Next) when
// the current one is used up; it returns false when the query ended,
// failed (see Err) or Rows was closed. Scan and ScanStruct read the row.
// Read a Rows either row by row (NextRow) or batch by batch (Next), not
// both.
func (r *Rows) NextRow() bool {
	c := &r.scan
	if r.cur != nil && c.batch == r.cur && c.row+1 < c.n {
		c.row++
		return true
	}
	for r.Next() {
		if r.cur.NumRows() > 0 {
			c.bind(r.cur, r.loc)
			return true
		}
	}
	c.unbind()
	return false
}

func (c *rowCursor) bind(b RecordBatch, loc *time.Location) {
	c.batch, c.row, c.n = b, 0, int(b.NumRows())
	if c.cols == nil {
		c.cols = make([]arrow.Array, b.NumCols())
		c.read = make([]func(int) any, b.NumCols())
	}
	for i := range c.cols {
		c.cols[i] = b.Column(i)
		c.read[i] = govalue.Reader(c.cols[i], loc)
	}
}

// unbind forgets the batch, which Next released.
func (c *rowCursor) unbind() {
	c.batch, c.row, c.n = nil, 0, 0
	clear(c.cols)
	clear(c.read)
}

// Columns are the result's column names, in order.
func (r *Rows) Columns() []string {
	names := make([]string, r.schema.NumFields())
	for i, f := range r.schema.Fields() {
		names[i] = f.Name
	}
	return names
}

// Scan copies the columns of the current row (see NextRow) into dest, one
// pointer per column, as database/sql's Rows.Scan does:
//
//	*int64, *int, *int32, ...   TINYINT, SMALLINT, INT, BIGINT (an error if the value does not fit)
//	*float64, *float32          FLOAT, DOUBLE, DECIMAL and the integer types
//	*bool                       BOOLEAN
//	*time.Time                  TIMESTAMP(p) (the wall time, in UTC), TIMESTAMP_LTZ(p)
//	                            (the instant, in the session's time zone, Rows.Location), DATE
//	*time.Duration              INTERVAL DAY TO SECOND (int64 months and *int scan a
//	                            YEAR TO MONTH interval's months)
//	*string                     any column: STRING as it is, any other its text as the
//	                            command line prints it (ValueText)
//	*[]byte                     any column: the bytes of that text (a copy)
//	*any                        the value as the database/sql driver gives it: int64,
//	                            float64, bool, string (also DECIMAL's and TIME's text),
//	                            time.Time, time.Duration, map[string]any (ROW), []any (ARRAY),
//	                            map[string]any or map[any]any (MAP, MULTISET), nil for NULL
//	*struct, *[]T, *map[K]V     ROW, ARRAY, MAP and MULTISET: a ROW's fields into the
//	                            struct fields named like them (or tagged `wsql:"name"`),
//	                            elements, keys and values each as Scan takes them; NULL
//	                            is a nil slice or map
//
// NULL goes into a pointer to a pointer (**int64 is set to nil), a
// sql.Scanner such as sql.NullInt64 or sql.Null[time.Time], or *any;
// into any other type it is an error naming the column. Named types
// (type UserID int64) scan like their kind.
func (r *Rows) Scan(dest ...any) error {
	c := &r.scan
	if c.batch == nil || c.batch != r.cur {
		return errors.New("wsql: Scan without a row: call NextRow first, and Scan while it returns true")
	}
	if len(dest) != len(c.cols) {
		return fmt.Errorf("wsql: Scan got %d destinations for the %d columns of the result (%s)", len(dest), len(c.cols), columnList(r.schema))
	}
	for i, d := range dest {
		p := reflect.ValueOf(d)
		if p.Kind() != reflect.Pointer || p.IsNil() {
			return fmt.Errorf("wsql: Scan destination %d for column %q is %T, not a non-nil pointer", i+1, r.schema.Field(i).Name, d)
		}
		if scanDirect(d, c.cols[i], c.row, r.loc) {
			continue
		}
		if err := r.assignValue(p.Elem(), c.read[i](c.row), i, ""); err != nil {
			return err
		}
	}
	return nil
}

// scanDirect stores row i of col in the common destinations that take
// its values as they are, without boxing them in an any or reflecting;
// it reports false for everything else (conversions, NULL, errors),
// which assignValue handles.
func scanDirect(dest any, col arrow.Array, i int, loc *time.Location) bool {
	if col.IsNull(i) {
		return false
	}
	switch d := dest.(type) {
	case *int64:
		if a, ok := col.(*array.Int64); ok {
			*d = a.Value(i)
			return true
		}
	case *float64:
		if a, ok := col.(*array.Float64); ok {
			*d = a.Value(i)
			return true
		}
	case *string:
		if a, ok := col.(*array.String); ok {
			*d = strings.Clone(a.Value(i)) // the batch's memory goes back on Next
			return true
		}
	case *bool:
		if a, ok := col.(*array.Boolean); ok {
			*d = a.Value(i)
			return true
		}
	case *time.Time:
		if a, ok := col.(*array.Timestamp); ok {
			*d = govalue.TimestampTime(a, i, loc)
			return true
		}
	}
	return false
}

// ScanStruct copies the current row into the struct dest points to: each
// column goes into the exported field tagged `wsql:"column"`, or else the
// one named like the column, ignoring case (as for PushTable.AppendStruct;
// `wsql:"-"` leaves a field out). Field types take values as in Scan. A
// column without a field is an error; fields without a column are left as
// they are.
func (r *Rows) ScanStruct(dest any) error {
	p := reflect.ValueOf(dest)
	if p.Kind() != reflect.Pointer || p.IsNil() || p.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("wsql: ScanStruct takes a non-nil pointer to a struct, not %T", dest)
	}
	c := &r.scan
	if c.batch == nil || c.batch != r.cur {
		return errors.New("wsql: ScanStruct without a row: call NextRow first, and scan while it returns true")
	}
	return r.scanStruct(p.Elem())
}

func (r *Rows) scanStruct(s reflect.Value) error {
	fields, err := r.structFields(s.Type())
	if err != nil {
		return err
	}
	for i, f := range fields {
		if err := r.scanColumn(s.Field(f), i, s.Type().Name()+"."+s.Type().Field(f).Name); err != nil {
			return err
		}
	}
	return nil
}

// structFields gives the field of t each column goes into.
func (r *Rows) structFields(t reflect.Type) ([]int, error) {
	c := &r.scan
	if f, ok := c.structs[t]; ok {
		return f, nil
	}
	fields := make([]int, r.schema.NumFields())
	for i, col := range r.schema.Fields() {
		j, ok := gotable.StructField(t, col.Name)
		if !ok {
			return nil, fmt.Errorf("wsql: struct %s has no field for column %q (%s); add an exported field named like it or tagged `wsql:\"%s\"`, or leave the column out of the SELECT", t, col.Name, columnTypeName(col), col.Name)
		}
		fields[i] = j
	}
	if c.structs == nil {
		c.structs = map[reflect.Type][]int{}
	}
	c.structs[t] = fields
	return fields, nil
}

func columnList(s *Schema) string {
	var b []byte
	for i, f := range s.Fields() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, f.Name...)
		b = append(b, ' ')
		b = append(b, columnTypeName(f)...)
	}
	return string(b)
}

// columnTypeName is the SQL type of a result column, as DESCRIBE shows it.
func columnTypeName(f arrow.Field) string {
	if f.Type.ID() == arrow.NULL {
		return "NULL"
	}
	return planner.FieldTypeName(f)
}
