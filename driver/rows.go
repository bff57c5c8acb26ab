package driver

import (
	"context"
	sqldriver "database/sql/driver"
	"errors"
	"io"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/exec/govalue"
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

	cols []arrow.Array   // of the current batch
	read []func(int) any // per column: govalue.Reader
	row  int
	n    int
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
		read: make([]func(int) any, len(fields)),
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
	for c, read := range d.read {
		dest[c] = read(d.row)
	}
	d.row++
	return nil
}

// bind chooses the conversion of every column of batch b.
func (d *rows) bind(b wsql.RecordBatch) {
	d.row, d.n = 0, int(b.NumRows())
	for c := range d.cols {
		d.cols[c] = b.Column(c)
		d.read[c] = govalue.Reader(d.cols[c], d.loc)
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
	scanBytes   = reflect.TypeFor[[]byte]()
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
	case arrow.DURATION: // a day-time interval
		return reflect.TypeFor[time.Duration]()
	case arrow.INTERVAL_MONTHS: // a year-month interval: its months
		return scanInt64
	case arrow.NULL:
		return scanAny
	case arrow.BINARY:
		return scanBytes
	case arrow.STRUCT:
		return reflect.TypeFor[map[string]any]() // a ROW by field name
	case arrow.LIST:
		return reflect.TypeFor[[]any]()
	case arrow.MAP:
		if d.r.Schema().Field(i).Type.(*arrow.MapType).KeyType().ID() == arrow.STRING {
			return reflect.TypeFor[map[string]any]()
		}
		return reflect.TypeFor[map[any]any]()
	}
	return scanString // STRING, DECIMAL, TIME and others as text
}

// ColumnTypeDatabaseTypeName is the Flink type name, e.g. BIGINT,
// TIMESTAMP(3), TIMESTAMP_LTZ(3), DECIMAL(10, 2).
func (d *rows) ColumnTypeDatabaseTypeName(i int) string {
	f := d.r.Schema().Field(i)
	if f.Type.ID() == arrow.NULL {
		return "NULL"
	}
	return planner.FieldTypeName(f)
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
