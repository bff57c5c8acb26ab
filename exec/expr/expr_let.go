package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Let evaluates Value once and Body over the batch with that value as an
// extra last column, which Body reads through a Bound. The planner uses it
// where a form reads one operand several times (x BETWEEN lo AND hi,
// NULLIF, a simple CASE, an IN list of expressions): written out, each
// reading would evaluate the operand again, and nesting the form would
// double the work at every level.
type Let struct {
	Value Expr
	Body  Expr
	Name  string // the Bound's name in String
}

func (e *Let) DataType() arrow.DataType { return e.Body.DataType() }
func (e *Let) children() []Expr         { return []Expr{e.Value, e.Body} }

func (e *Let) String() string {
	return fmt.Sprintf("LET %s = %s IN (%s)", e.Name, e.Value, e.Body)
}

func (e *Let) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	v, err := e.Value.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	n := int(rec.NumCols())
	fields := append(append(make([]arrow.Field, 0, n+1), rec.Schema().Fields()...), arrow.Field{Name: e.Name, Type: v.DataType(), Nullable: true})
	cols := append(append(make([]arrow.Array, 0, n+1), rec.Columns()...), v)
	ext := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
	defer ext.Release()
	return e.Body.Eval(ext, mem)
}

// Bound reads the value of the nearest enclosing Let of its name: the
// last column so named (Lets nest: LEAST(a, b) shares both operands).
type Bound struct {
	Type arrow.DataType
	Name string
}

func (e *Bound) DataType() arrow.DataType { return e.Type }
func (e *Bound) String() string           { return e.Name }

func (e *Bound) Eval(rec arrow.RecordBatch, _ memory.Allocator) (arrow.Array, error) {
	i := int(rec.NumCols()) - 1
	for i > 0 && rec.ColumnName(i) != e.Name {
		i--
	}
	a := rec.Column(i)
	a.Retain()
	return a, nil
}
