package wsql

import (
	"fmt"
	"iter"
	"reflect"
)

// RowsOf iterates over the rows of rows as values of T, as they arrive: a
// struct (or a pointer to one) is filled by column names as ScanStruct
// fills it; any other T (int64, string, time.Time, *float64, ...) takes a
// result of one column, as Scan does. A failure ends the loop with the
// zero T and the error. Rows is closed when the loop ends, also by break;
// its Summary is complete then.
//
//	for c, err := range wsql.RowsOf[Count](rows) { ... }
func RowsOf[T any](rows *Rows) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		defer rows.Close()
		var zero T
		scan, err := rowScannerFor[T](rows)
		if err != nil {
			yield(zero, err)
			return
		}
		for rows.NextRow() {
			var v T
			if err := scan(reflect.ValueOf(&v).Elem()); err != nil {
				yield(zero, err)
				return
			}
			if !yield(v, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(zero, err)
		}
	}
}

// Collect reads every row of rows into a slice of T (see RowsOf) and
// closes rows. It returns the rows read until an error with the error.
// For a query that never ends (an unbounded source) use RowsOf.
func Collect[T any](rows *Rows) ([]T, error) {
	var all []T
	for v, err := range RowsOf[T](rows) {
		if err != nil {
			return all, err
		}
		all = append(all, v)
	}
	return all, nil
}

// rowScannerFor returns how a row goes into a T.
func rowScannerFor[T any](rows *Rows) (func(dst reflect.Value) error, error) {
	t := reflect.TypeFor[T]()
	if isRowStruct(t) {
		return rows.scanStruct, nil
	}
	if t.Kind() == reflect.Pointer && isRowStruct(t.Elem()) {
		return func(dst reflect.Value) error {
			p := reflect.New(t.Elem())
			if err := rows.scanStruct(p.Elem()); err != nil {
				return err
			}
			dst.Set(p)
			return nil
		}, nil
	}
	if n := rows.schema.NumFields(); n != 1 {
		return nil, fmt.Errorf("wsql: a row of %d columns (%s) does not go into a %s; read it into a struct with a field per column", n, columnList(rows.schema), t)
	}
	return func(dst reflect.Value) error { return rows.scanColumn(dst, 0, "") }, nil
}

// isRowStruct tells whether a row goes into t field by field, rather
// than t taking one column's value.
func isRowStruct(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != timeType && !reflect.PointerTo(t).Implements(scannerType)
}
