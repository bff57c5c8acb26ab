package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Expr is a compiled scalar expression evaluated a whole batch at a time:
// one call per batch returns a column, never a value per row.
type Expr interface {
	DataType() arrow.DataType
	// Eval returns the expression's value for every row of rec. The caller
	// releases the returned array.
	Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error)
	String() string
}

// ColumnExpr is a reference to an input column.
type ColumnExpr struct {
	Index int
	Name  string
	Type  arrow.DataType
}

func (c *ColumnExpr) DataType() arrow.DataType { return c.Type }

// Eval shares the input's array (zero copy).
func (c *ColumnExpr) Eval(rec arrow.RecordBatch, _ memory.Allocator) (arrow.Array, error) {
	a := rec.Column(c.Index)
	a.Retain()
	return a, nil
}

func (c *ColumnExpr) String() string { return fmt.Sprintf("%s#%d", c.Name, c.Index) }
