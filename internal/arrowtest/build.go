package arrowtest

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Array builds an array of type dt holding vals (nil is NULL). The caller
// releases it.
func Array(t testing.TB, mem memory.Allocator, dt arrow.DataType, vals ...any) arrow.Array {
	t.Helper()
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i, v := range vals {
		if err := appendValue(b, v); err != nil {
			t.Fatalf("arrowtest.Array: value %d: %v", i, err)
		}
	}
	return b.NewArray()
}

// Record builds a record batch of schema from rows, each row one value
// per field (nil is NULL). The caller releases it.
func Record(t testing.TB, mem memory.Allocator, schema *arrow.Schema, rows ...[]any) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for r, row := range rows {
		if len(row) != schema.NumFields() {
			t.Fatalf("arrowtest.Record: row %d has %d values for %d fields", r, len(row), schema.NumFields())
		}
		for c, v := range row {
			if err := appendValue(b.Field(c), v); err != nil {
				t.Fatalf("arrowtest.Record: row %d, field %s: %v", r, schema.Field(c).Name, err)
			}
		}
	}
	return b.NewRecordBatch()
}

// Columns builds a record batch of n rows of schema from columns given by
// field name (nil is NULL); a field not named is NULL in every row, so a
// test over a wide schema states only the columns it reads.
func Columns(t testing.TB, mem memory.Allocator, schema *arrow.Schema, n int, cols map[string][]any) arrow.RecordBatch {
	t.Helper()
	for name, vals := range cols {
		if !schema.HasField(name) {
			t.Fatalf("arrowtest.Columns: the schema has no field %s", name)
		}
		if len(vals) != n {
			t.Fatalf("arrowtest.Columns: field %s has %d values for %d rows", name, len(vals), n)
		}
	}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		vals, ok := cols[f.Name]
		if !ok {
			b.Field(i).AppendNulls(n)
			continue
		}
		for r, v := range vals {
			if err := appendValue(b.Field(i), v); err != nil {
				t.Fatalf("arrowtest.Columns: field %s, row %d: %v", f.Name, r, err)
			}
		}
	}
	return b.NewRecordBatch()
}

// Batch makes a record batch of cols, named c0, c1, ..., taking over the
// caller's references to them. With no columns it has one row, as a batch
// a constant expression is evaluated over.
func Batch(cols ...arrow.Array) arrow.RecordBatch {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: c.DataType(), Nullable: true}
	}
	n := int64(1)
	if len(cols) > 0 {
		n = int64(cols[0].Len())
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, n)
	for _, c := range cols {
		c.Release()
	}
	return rec
}
