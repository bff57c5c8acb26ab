package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TableRows is a result writer that keeps the batches written: the rows
// of a table of files a lookup join reads whole (LookupFileConfig.Load).
type TableRows struct {
	batches []arrow.RecordBatch
}

func (c *TableRows) WriteBatch(rec arrow.RecordBatch) error {
	rec.Retain()
	c.batches = append(c.batches, rec)
	return nil
}

func (c *TableRows) Close() error { return nil }

// Release lets the batches go.
func (c *TableRows) Release() {
	for _, b := range c.batches {
		b.Release()
	}
	c.batches = nil
}

// Concat is the batches as one batch of schema, column by column.
func (c *TableRows) Concat(mem memory.Allocator, schema *arrow.Schema) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, col := range cols {
			if col != nil {
				col.Release()
			}
		}
	}()
	rows := int64(0)
	for _, b := range c.batches {
		rows += b.NumRows()
	}
	for i, f := range schema.Fields() {
		if len(c.batches) == 0 {
			cols[i] = array.MakeArrayOfNull(mem, f.Type, 0)
			continue
		}
		parts := make([]arrow.Array, len(c.batches))
		for k, b := range c.batches {
			parts[k] = b.Column(i)
		}
		col, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, err
		}
		cols[i] = col
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}
