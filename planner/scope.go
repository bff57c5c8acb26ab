package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
)

// streamScope resolves column names to the stream of rows entering the
// window (or the projection of a plain SELECT): the table's physical
// columns and the computed ones the query reads.
type streamScope struct {
	s         *selectPlanner
	streamIdx map[int]int
	stream    *arrow.Schema
}

func (sc *streamScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	switch x := e.(type) {
	case *sql.ColumnRef:
		if isNiladic(x) && sc.s.table.Column(x.Name) < 0 {
			return 0, arrow.Field{}, false, nil
		}
		idx, err := sc.s.resolve(x)
		if err != nil {
			return 0, arrow.Field{}, false, err
		}
		if sc.s.table.Columns[idx].Proctime {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrUnsupported, x.At, "the processing-time column %s cannot be used in expressions yet", x.Name)
		}
		si, ok := sc.streamIdx[idx]
		if !ok {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "internal: column %s is not in the stream", x.Name)
		}
		return si, sc.stream.Field(si), true, nil
	case *sql.FuncCall:
		if err := checkKnownFunction(sc.s.fns, x); err != nil {
			return 0, arrow.Field{}, false, err
		}
		if isAggregateCall(sc.s.fns, x) {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "aggregate %s is not allowed here: use it in the select list or HAVING", x.Name)
		}
	case *sql.WindowAux:
		return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "%s_%s is not allowed here: window properties exist after the window", x.Kind, x.Prop)
	case *sql.WindowCall:
		return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "%s(...) belongs in GROUP BY", x.Kind)
	}
	return 0, arrow.Field{}, false, nil
}

// IsRowtime reports x reads the table's rowtime attribute, whose
// watermarks reach the expressions over this stream (CURRENT_WATERMARK).
func (sc *streamScope) IsRowtime(x expr.Expr) bool {
	c, ok := x.(*expr.ColumnExpr)
	w := sc.s.table.Watermark
	return ok && w != nil && c.Index == sc.streamIdx[w.Index]
}

// windowScope resolves the select list and HAVING against the window
// operator's output: group keys, window properties and aggregates. A
// column that is neither grouped nor aggregated is an error, as in Flink.
type windowScope struct {
	s                  *selectPlanner
	schema             *arrow.Schema
	nk, shift, aggBase int
}

func (sc *windowScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	at := func(c int) (int, arrow.Field, bool, error) {
		return c + sc.shift, sc.schema.Field(c + sc.shift), true, nil
	}
	s := sc.s
	switch x := e.(type) {
	case *sql.ColumnRef:
		if s.tvf != nil {
			if w := s.windowColumnIndex(x); w >= 0 {
				return at(sc.nk + w)
			}
		}
		if isNiladic(x) && s.table.Column(x.Name) < 0 {
			return 0, arrow.Field{}, false, nil
		}
		idx, err := s.resolve(x)
		if err != nil {
			return 0, arrow.Field{}, false, err
		}
		k := indexOf(s.keyCols, idx)
		if k < 0 {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "column %s is not being grouped: add it to GROUP BY or use it in an aggregate", s.table.Columns[idx].Name)
		}
		return at(k)
	case *sql.WindowAux:
		if s.tvf != nil || s.windowCall == nil {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "%s_%s needs a GROUP BY %s(...) window", x.Kind, x.Prop, x.Kind)
		}
		if err := s.checkAux(x); err != nil {
			return 0, arrow.Field{}, false, err
		}
		switch x.Prop {
		case sql.WindowStart:
			return at(sc.nk)
		case sql.WindowEnd:
			return at(sc.nk + 1)
		case sql.WindowRowtime:
			return at(sc.nk + 2)
		}
		return 0, arrow.Field{}, false, sql.Errorf(sql.ErrUnsupported, x.At, "%s_%s is not supported yet", x.Kind, x.Prop)
	case *sql.FuncCall:
		if c, ok := s.groupingColumn(x); ok {
			return at(c)
		}
		if err := checkKnownFunction(s.fns, x); err != nil {
			return 0, arrow.Field{}, false, err
		}
		if isAggregateCall(s.fns, x) {
			i, ok := s.aggOf[x]
			if !ok {
				return 0, arrow.Field{}, false, fmt.Errorf("internal: aggregate %s was not planned", x.Name)
			}
			return at(sc.aggBase + i)
		}
	case *sql.WindowCall:
		return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "%s(...) belongs in GROUP BY; select %s_START, %s_END or %s_ROWTIME instead", x.Kind, x.Kind, x.Kind, x.Kind)
	}
	return 0, arrow.Field{}, false, nil
}

// isNiladic reports a bare name that is a niladic function such as
// CURRENT_TIMESTAMP (CompileExpr compiles those itself).
func isNiladic(c *sql.ColumnRef) bool {
	if c.Table != "" {
		return false
	}
	return builtins.IsBare(c.Name)
}

// referencedColumns lists the table columns an expression reads.
func (s *selectPlanner) referencedColumns(e sql.Expr) ([]int, error) {
	var out []int
	var err error
	walkExpr(e, func(x sql.Expr) bool {
		c, ok := x.(*sql.ColumnRef)
		if !ok || err != nil || (isNiladic(c) && s.table.Column(c.Name) < 0) {
			return err == nil
		}
		var idx int
		if idx, err = s.resolve(c); err == nil {
			out = append(out, idx)
		}
		return err == nil
	})
	return out, err
}

// exprOptions are the compile options of a query.
func exprOptions(opts Options) exprplan.ExprOptions {
	o := exprplan.ExprOptions{Location: opts.Location, Functions: opts.Functions}
	if opts.Clock != nil {
		o.Now = opts.Clock.Now().UnixMilli()
	}
	return o
}

// checkKnownFunction reports an unknown function before its arguments are
// looked at, with the closest known name.
func checkKnownFunction(fns *function.Registry, f *sql.FuncCall) error {
	if isAggregateCall(fns, f) || fns.IsKind(strings.ToUpper(f.Name), function.ScalarFunction) || fns.IsKind(strings.ToUpper(f.Name), function.TableFunction) {
		return nil
	}
	return sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", f.Name, sql.DidYouMean(f.Name, fns.CallableNames()))
}
