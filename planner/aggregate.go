package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// aggregate lowers COUNT(*), COUNT(col) and SUM(col); it returns the table
// column of the argument (-1 for COUNT(*)).
func (s *selectPlanner) aggregate(f *sql.FuncCall) (Aggregate, int, error) {
	agg := Aggregate{Text: aggText(f)}
	if f.Distinct {
		return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "%s(DISTINCT ...) is not supported yet", f.Name)
	}
	switch f.Name {
	case "COUNT":
		if f.Star {
			agg.Spec = windowop.AggSpec{Kind: windowop.CountStar}
			return agg, -1, nil
		}
		idx, err := s.aggArg(f)
		agg.Spec = windowop.AggSpec{Kind: windowop.Count}
		return agg, idx, err
	case "SUM":
		idx, err := s.aggArg(f)
		if err != nil {
			return agg, -1, err
		}
		switch s.table.Columns[idx].Type.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
		default:
			return agg, -1, sql.Errorf(sql.ErrUnsupported, f.Args[0].Pos(), "SUM over %s is not supported yet", s.table.Columns[idx].SQLType)
		}
		agg.Spec = windowop.AggSpec{Kind: windowop.Sum}
		return agg, idx, nil
	}
	if isAggregate(f.Name) {
		return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "aggregate %s is not supported yet (supported: COUNT, SUM)", f.Name)
	}
	if isScalarFunction(f.Name) {
		return agg, -1, sql.Errorf(sql.ErrUnsupported, f.At, "function %s in the select list is not supported yet", f.Name)
	}
	return agg, -1, sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", f.Name, catalog.DidYouMean(f.Name, knownFunctions()))
}

func (s *selectPlanner) aggArg(f *sql.FuncCall) (int, error) {
	if len(f.Args) != 1 {
		return -1, sql.Errorf(sql.ErrInvalid, f.At, "%s takes exactly one argument", f.Name)
	}
	c, ok := f.Args[0].(*sql.ColumnRef)
	if !ok {
		return -1, sql.Errorf(sql.ErrUnsupported, f.Args[0].Pos(), "%s over an expression is not supported yet; use a column", f.Name)
	}
	idx, err := s.resolve(c)
	if err == nil && s.table.Columns[idx].Proctime {
		return -1, sql.Errorf(sql.ErrUnsupported, c.At, "aggregating the processing-time column %s is not supported yet", c.Name)
	}
	return idx, err
}

func aggText(f *sql.FuncCall) string {
	if f.Star {
		return f.Name + "(*)"
	}
	var args []string
	for _, a := range f.Args {
		if c, ok := a.(*sql.ColumnRef); ok {
			args = append(args, c.Name)
		} else {
			args = append(args, "...")
		}
	}
	d := ""
	if f.Distinct {
		d = "DISTINCT "
	}
	return f.Name + "(" + d + strings.Join(args, ", ") + ")"
}
