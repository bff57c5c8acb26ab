package lateral

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
)

// TableEval computes a table function over one batch of argument rows: a
// record batch of its columns and, for each of its rows, the argument row
// it belongs to, in non-decreasing order.
type TableEval func(mem memory.Allocator, args []arrow.Array) (arrow.RecordBatch, []int, error)

// Spec is one correlate step. Its output is the input's columns, then the
// generated columns: for UNNEST the element (a ROW element's fields, a
// MAP's key and value) and, WITH ORDINALITY, the element's position from
// 1; for a table function its columns.
type Spec struct {
	Input *arrow.Schema
	// Args are computed over each input batch: UNNEST's one array,
	// multiset or map, or the table function's arguments.
	Args []expr.Expr
	// Function is the table function; nil for UNNEST.
	Function TableEval
	// FunctionName names the function in errors.
	FunctionName string
	// Ordinality is UNNEST's WITH ORDINALITY.
	Ordinality bool
	// Left keeps an input row that gives no rows (LEFT JOIN ... ON TRUE),
	// once, with NULL generated columns; otherwise it gives nothing.
	Left   bool
	Schema *arrow.Schema // Input's fields, then the generated ones
}

// Generated is the number of generated columns.
func (s Spec) Generated() int { return s.Schema.NumFields() - s.Input.NumFields() }

// Check verifies the spec's shape.
func (s Spec) Check() error {
	if s.Input == nil || s.Schema == nil || s.Generated() < 1 {
		return fmt.Errorf("lateral: the output must add columns to the input")
	}
	if s.Function == nil {
		if len(s.Args) != 1 {
			return fmt.Errorf("lateral: UNNEST takes one argument, got %d", len(s.Args))
		}
		want, err := UnnestFields(s.Args[0].DataType(), s.Ordinality)
		if err != nil {
			return err
		}
		if len(want) != s.Generated() {
			return fmt.Errorf("lateral: UNNEST of %s gives %d columns, the schema has %d", s.Args[0].DataType(), len(want), s.Generated())
		}
	}
	return nil
}

// UnnestFields are the columns UNNEST of a value of type dt gives, named
// as Flink names them when no alias does: an array's or multiset's
// element (EXPR$0), a ROW element's fields, a map's KEY and VALUE, then
// ORDINALITY (INT NOT NULL).
func UnnestFields(dt arrow.DataType, ordinality bool) ([]arrow.Field, error) {
	var out []arrow.Field
	elem := func(e arrow.DataType) {
		if st, ok := e.(*arrow.StructType); ok {
			for _, f := range st.Fields() {
				f.Nullable = true
				out = append(out, f)
			}
		} else {
			out = []arrow.Field{{Name: "EXPR$0", Type: e, Nullable: true}}
		}
	}
	switch t := dt.(type) {
	case *arrow.MapType:
		if format.IsMultiset(t) {
			elem(t.KeyType())
		} else {
			out = []arrow.Field{{Name: "KEY", Type: t.KeyType(), Nullable: true}, {Name: "VALUE", Type: t.ItemType(), Nullable: true}}
		}
	case *arrow.ListType:
		elem(t.Elem())
	default:
		return nil, fmt.Errorf("UNNEST expands an ARRAY, a MULTISET or a MAP, not %s", dt)
	}
	if ordinality {
		out = append(out, arrow.Field{Name: "ORDINALITY", Type: arrow.PrimitiveTypes.Int32})
	}
	return out, nil
}
