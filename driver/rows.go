package driver

import (
	"context"
	sqldriver "database/sql/driver"
	"errors"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/planner"
)

// rows reads a streaming Query for database/sql: it takes one batch
// at a time from Rows (so a query's result is never held whole) and hands
// out its rows. The Go conversion of each column is chosen once per batch.
type rows struct {
	r     *wsql.Rows
	loc   *time.Location // TIMESTAMP_LTZ values are shown in it
	names []string

	cols []arrow.Array               // of the current batch
	read []func(int) sqldriver.Value // per column, for a non-null row
	row  int
	n    int
	buf  []byte // scratch for text forms
}

var (
	_ sqldriver.RowsColumnTypeScanType         = (*rows)(nil)
	_ sqldriver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ sqldriver.RowsColumnTypeNullable         = (*rows)(nil)
	_ sqldriver.RowsColumnTypePrecisionScale   = (*rows)(nil)
)

func newRows(r *wsql.Rows) *rows {
	loc := r.Location()
	if loc == nil {
		loc = time.Local
	}
	fields := r.Schema().Fields()
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return &rows{
		r: r, loc: loc, names: names,
		cols: make([]arrow.Array, len(fields)),
		read: make([]func(int) sqldriver.Value, len(fields)),
	}
}

func (d *rows) Columns() []string { return d.names }

// Next fills dest with the next row, waiting for the next batch when the
// current one is used up. The query's error (the ctx's, if it was
// cancelled) ends the rows in its place of io.EOF.
func (d *rows) Next(dest []sqldriver.Value) (err error) {
	defer pipeline.CatchPanic(&err)
	for d.row >= d.n {
		if !d.r.Next() {
			clear(d.cols) // the last batch was released
			clear(d.read)
			if err := d.r.Err(); err != nil {
				return err
			}
			return io.EOF
		}
		d.bind(d.r.RecordBatch())
	}
	for c, col := range d.cols {
		if col.IsNull(d.row) {
			dest[c] = nil
		} else {
			dest[c] = d.read[c](d.row)
		}
	}
	d.row++
	return nil
}

// bind chooses the conversion of every column of batch b.
func (d *rows) bind(b wsql.RecordBatch) {
	d.row, d.n = 0, int(b.NumRows())
	for c := range d.cols {
		d.cols[c] = b.Column(c)
		d.read[c] = d.reader(d.cols[c])
	}
}

// reader returns the conversion of arr's values to sqldriver.Value.
func (d *rows) reader(arr arrow.Array) func(int) sqldriver.Value {
	switch a := arr.(type) {
	case *array.Null: // SELECT NULL: Arrow keeps no validity bits for it
		return func(int) sqldriver.Value { return nil }
	case *array.Int8:
		return func(i int) sqldriver.Value { return int64(a.Value(i)) }
	case *array.Int16:
		return func(i int) sqldriver.Value { return int64(a.Value(i)) }
	case *array.Int32:
		return func(i int) sqldriver.Value { return int64(a.Value(i)) }
	case *array.Int64:
		return func(i int) sqldriver.Value { return a.Value(i) }
	case *array.Uint8:
		return func(i int) sqldriver.Value { return int64(a.Value(i)) }
	case *array.Uint16:
		return func(i int) sqldriver.Value { return int64(a.Value(i)) }
	case *array.Uint32:
		return func(i int) sqldriver.Value { return int64(a.Value(i)) }
	case *array.Float32:
		return func(i int) sqldriver.Value { return float64(a.Value(i)) }
	case *array.Float64:
		return func(i int) sqldriver.Value { return a.Value(i) }
	case *array.Boolean:
		return func(i int) sqldriver.Value { return a.Value(i) }
	case *array.String:
		// Cloned: the batch's memory goes back to the allocator on Next.
		return func(i int) sqldriver.Value { return strings.Clone(a.Value(i)) }
	case *array.LargeString:
		return func(i int) sqldriver.Value { return strings.Clone(a.Value(i)) }
	case *array.Date32:
		return func(i int) sqldriver.Value { return time.Unix(int64(a.Value(i))*86400, 0).UTC() }
	case *array.Date64:
		return func(i int) sqldriver.Value { return time.UnixMilli(int64(a.Value(i))).UTC() }
	case *array.Timestamp:
		tt := a.DataType().(*arrow.TimestampType)
		if tt.TimeZone != "" { // TIMESTAMP_LTZ: an instant, seen in the session zone
			return func(i int) sqldriver.Value { return a.Value(i).ToTime(tt.Unit).In(d.loc) }
		}
		return func(i int) sqldriver.Value { return a.Value(i).ToTime(tt.Unit) } // wall clock, in UTC
	}
	// DECIMAL (exact, with its scale's fraction digits), TIME and anything
	// else: the text the CSV writer prints.
	return func(i int) sqldriver.Value {
		d.buf = format.AppendValue(d.buf[:0], arr, i, d.loc)
		return string(d.buf)
	}
}

// Close stops the query if it still runs and releases its batch. A
// cancelled context was already reported by Next, so it is not repeated.
func (d *rows) Close() error {
	clear(d.cols)
	clear(d.read)
	err := d.r.Close()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

var (
	scanInt64   = reflect.TypeFor[int64]()
	scanFloat64 = reflect.TypeFor[float64]()
	scanBool    = reflect.TypeFor[bool]()
	scanString  = reflect.TypeFor[string]()
	scanTime    = reflect.TypeFor[time.Time]()
	scanAny     = reflect.TypeFor[any]()
)

// ColumnTypeScanType is the Go type Next gives for the column's non-null
// values (NULL is nil).
func (d *rows) ColumnTypeScanType(i int) reflect.Type {
	switch d.r.Schema().Field(i).Type.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32:
		return scanInt64
	case arrow.FLOAT32, arrow.FLOAT64:
		return scanFloat64
	case arrow.BOOL:
		return scanBool
	case arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP:
		return scanTime
	case arrow.NULL:
		return scanAny
	}
	return scanString // STRING, DECIMAL, TIME and others as text
}

// ColumnTypeDatabaseTypeName is the Flink type name, e.g. BIGINT,
// TIMESTAMP(3), TIMESTAMP_LTZ(3), DECIMAL(10, 2).
func (d *rows) ColumnTypeDatabaseTypeName(i int) string {
	t := d.r.Schema().Field(i).Type
	if t.ID() == arrow.NULL {
		return "NULL"
	}
	return planner.SQLTypeName(t)
}

// ColumnTypeNullable tells whether the column may hold NULL.
func (d *rows) ColumnTypeNullable(i int) (nullable, ok bool) {
	return d.r.Schema().Field(i).Nullable, true
}

// ColumnTypePrecisionScale gives DECIMAL's precision and scale.
func (d *rows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if t, isDec := d.r.Schema().Field(i).Type.(*arrow.Decimal128Type); isDec {
		return int64(t.Precision), int64(t.Scale), true
	}
	return 0, 0, false
}
