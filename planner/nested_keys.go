package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/windowop"
)

// nestedKey makes a ROW, ARRAY, MAP or MULTISET grouping key the window
// groups and partitions by: its canonical encoding as BYTES; a scalar key
// is itself.
func nestedKey(e expr.Expr) expr.Expr {
	if !format.IsNestedType(e.DataType()) {
		return e
	}
	return &nestedfn.Key{X: e}
}

// heldElementType is the nested type of the values ARRAY_AGG or COLLECT
// holds as their encoding; nil for other aggregates and scalar values.
func heldElementType(spec windowop.AggSpec, dt arrow.DataType) arrow.DataType {
	if (spec.Kind == windowop.ArrayAgg || spec.Kind == windowop.Collect) && format.IsNestedType(dt) {
		return dt
	}
	return nil
}

// nestedValues decodes the window's nested keys (keys[k], of the key
// expression's type, from column shift) and the elements of ARRAY_AGG and
// COLLECT over nested values (elems[i], from column aggAt) back into their
// values, a stage between the window and what reads its output; nil when
// nothing is nested.
func nestedValues(win *arrow.Schema, keys []arrow.DataType, shift int, elems []arrow.DataType, aggAt int) *exec.ProjectSpec {
	spec := &exec.ProjectSpec{}
	fields := win.Fields()
	nested := false
	for i, f := range fields {
		var e expr.Expr = &expr.ColumnExpr{Index: i, Name: f.Name, Type: f.Type}
		if k := i - shift; k >= 0 && k < len(keys) && format.IsNestedType(keys[k]) {
			e, fields[i].Type, nested = &nestedfn.KeyValue{X: e, Type: keys[k]}, keys[k], true
		}
		if a := i - aggAt; a >= 0 && a < len(elems) && elems[a] != nil {
			t := nestedfn.DecodedElementsType(f.Type, elems[a])
			e, fields[i].Type, nested = &nestedfn.ElementValues{X: e, Type: t}, t, true
		}
		spec.Exprs = append(spec.Exprs, e)
	}
	if !nested {
		return nil
	}
	spec.Schema = arrow.NewSchema(fields, nil)
	return spec
}
