package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expand"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// GROUPING SETS, ROLLUP and CUBE are planned as Flink plans them: an
// Expand step replicates each row once per grouping set, with copies of
// the keys that are NULL in the sets that do not group by them and a
// grouping id $e, and one aggregation (windowed or not) keys by the copies
// and $e. A GROUPING(a, ...) call is one more constant column of the
// Expand, its value per set, and so one more key of the aggregation.

// groupingSets is what the planner knows of a query's grouping sets.
type groupingSets struct {
	members [][]bool // per set: which of keyCols it groups by
	calls   map[*sql.FuncCall]int
	values  [][]int64 // per GROUPING call: its value per set
	names   []string  // per GROUPING call: as written, its column's name
}

// isGroupingCall reports a GROUPING or GROUPING_ID call.
func isGroupingCall(e sql.Expr) (*sql.FuncCall, bool) {
	f, ok := e.(*sql.FuncCall)
	if !ok {
		return nil, false
	}
	n := strings.ToUpper(f.Name)
	return f, n == "GROUPING" || n == "GROUPING_ID" || n == "GROUP_ID"
}

// checkGroupingSets refuses a window inside a grouping set: Flink requires
// the window in GROUP BY, outside GROUPING SETS, ROLLUP and CUBE.
func (s *selectPlanner) checkGroupingSets() error {
	for _, set := range s.stmt.GroupingSets {
		for _, e := range set {
			switch x := e.(type) {
			case *sql.WindowCall:
				return sql.Errorf(sql.ErrInvalid, x.At, "the window %s(...) must be in GROUP BY outside GROUPING SETS, ROLLUP and CUBE, as in GROUP BY %s(...), GROUPING SETS (...)", x.Kind, x.Kind)
			case *sql.ColumnRef:
				if s.tvf != nil && s.windowColumnIndex(x) >= 0 {
					return sql.Errorf(sql.ErrInvalid, x.At, "%s must be in GROUP BY outside GROUPING SETS, ROLLUP and CUBE, as Flink requires: GROUP BY window_start, window_end, GROUPING SETS (...)", strings.ToLower(x.Name))
				}
			}
		}
	}
	return nil
}

// planGroupingSets adds the keys of the grouping sets to the GROUP BY's
// own, which every set groups by, and records each set's keys. A query
// with GROUPING calls and no grouping sets has one set of every key.
func (s *selectPlanner) planGroupingSets() error {
	plain := len(s.keyCols)
	var sets [][]int
	for _, set := range s.stmt.GroupingSets {
		var keys []int
		for _, e := range set {
			k, err := s.groupingKey(e)
			if err != nil {
				return err
			}
			keys = append(keys, k)
		}
		sets = append(sets, keys)
	}
	if sets == nil {
		sets = [][]int{nil}
	}
	if s.windowCall != nil && s.window.Kind == sql.CountWindow {
		return sql.Errorf(sql.ErrUnsupported, s.windowCall.At, "GROUPING SETS, ROLLUP and CUBE over COUNT_WINDOW are not supported; use a time window")
	}
	g := &groupingSets{calls: map[*sql.FuncCall]int{}}
	for _, keys := range sets {
		m := make([]bool, len(s.keyCols))
		for k := 0; k < plain; k++ {
			m[k] = true
		}
		for _, k := range keys {
			m[k] = true
		}
		g.members = append(g.members, m)
	}
	s.sets = g
	return nil
}

// groupingKey returns the key position of a grouping set's expression,
// adding it to the keys the first time.
func (s *selectPlanner) groupingKey(e sql.Expr) (int, error) {
	if c, ok := e.(*sql.ColumnRef); ok {
		idx, err := s.resolve(c)
		if err != nil {
			return -1, err
		}
		if k := indexOf(s.keyCols, idx); k >= 0 {
			return k, nil
		}
		if err := s.addKey(c); err != nil {
			return -1, err
		}
		return len(s.keyCols) - 1, nil
	}
	if s.tvf != nil {
		return -1, sql.Errorf(sql.ErrUnsupported, e.Pos(), "GROUP BY on expressions is not supported yet; group by columns")
	}
	if hasAggregate(s.fns, e) {
		return -1, sql.Errorf(sql.ErrInvalid, e.Pos(), "aggregates are not allowed in GROUP BY")
	}
	if k := s.keyExprIndex(e); k >= 0 {
		return k, nil
	}
	s.keyExprs = append(s.keyExprs, keyExpr{pos: len(s.keyCols), e: e})
	s.keyCols = append(s.keyCols, -1)
	return len(s.keyCols) - 1, nil
}

// addGrouping plans GROUPING(a, ...) (or GROUPING_ID): a bit per argument,
// the first the highest, set where the set does not group by it; and
// GROUP_ID(), which tells apart sets of the same keys.
func (s *selectPlanner) addGrouping(f *sql.FuncCall) error {
	if _, ok := s.sets.calls[f]; ok {
		return nil
	}
	if strings.EqualFold(f.Name, "GROUP_ID") {
		if len(f.Args) > 0 {
			return sql.Errorf(sql.ErrInvalid, f.At, "GROUP_ID takes no arguments")
		}
		// the number of earlier sets of the same keys
		values := make([]int64, len(s.sets.members))
		for i, m := range s.sets.members {
			for _, earlier := range s.sets.members[:i] {
				if slices.Equal(m, earlier) {
					values[i]++
				}
			}
		}
		s.sets.calls[f] = len(s.sets.values)
		s.sets.values = append(s.sets.values, values)
		s.sets.names = append(s.sets.names, sqlfmt.Expr(f))
		return nil
	}
	if len(f.Args) == 0 || len(f.Args) > 63 {
		return sql.Errorf(sql.ErrInvalid, f.At, "%s takes 1 to 63 grouping expressions", strings.ToUpper(f.Name))
	}
	var keys []int
	for _, a := range f.Args {
		k := -1
		if c, ok := a.(*sql.ColumnRef); ok && (s.tvf == nil || s.windowColumnIndex(c) < 0) {
			idx, err := s.resolve(c)
			if err != nil {
				return err
			}
			k = indexOf(s.keyCols, idx)
		} else if _, ok := a.(*sql.ColumnRef); !ok {
			k = s.keyExprIndex(a)
		}
		if k < 0 {
			return sql.Errorf(sql.ErrInvalid, a.Pos(), "the argument %s of %s must be a grouping expression of GROUP BY", sqlfmt.Expr(a), strings.ToUpper(f.Name))
		}
		keys = append(keys, k)
	}
	values := make([]int64, len(s.sets.members))
	for i, m := range s.sets.members {
		for j, k := range keys {
			if !m[k] {
				values[i] |= 1 << (len(keys) - 1 - j)
			}
		}
	}
	s.sets.calls[f] = len(s.sets.values)
	s.sets.values = append(s.sets.values, values)
	s.sets.names = append(s.sets.names, sqlfmt.Expr(f))
	return nil
}

// expand puts the Expand step before the aggregation: the keys become the
// copies, followed by $e and the GROUPING values; keyTypes grows to match.
func (s *selectPlanner) expand(p *Plan, keyTypes []arrow.DataType) ([]arrow.DataType, error) {
	g := s.sets
	if p.Emit.LateDataPath != "" && !p.Group {
		// the late rows file would get each late row once per set
		return nil, sql.Errorf(sql.ErrUnsupported, s.stmt.At, "'wsql.late-data.path' is not supported yet with GROUPING SETS, ROLLUP or CUBE; RESET it for this query")
	}
	fields := append([]arrow.Field(nil), p.Stream.Fields()...)
	base := len(fields)
	for _, k := range p.Keys {
		f := p.Stream.Field(k)
		f.Nullable = true // NULL where a set does not group by it, as Flink's types say
		fields = append(fields, f)
	}
	fields = append(fields, arrow.Field{Name: "$e", Type: arrow.PrimitiveTypes.Int64})
	for _, name := range g.names {
		fields = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64})
	}
	spec := &expand.Spec{Keys: p.Keys, Sets: g.members, Schema: arrow.NewSchema(fields, nil)}
	for i := range g.members {
		row := []int64{int64(i)} // $e: the set's number, so a set listed twice counts twice
		for _, v := range g.values {
			row = append(row, v[i])
		}
		spec.Consts = append(spec.Consts, row)
	}
	p.Expand, p.Stream = spec, spec.Schema
	p.Keys = nil
	for i := base; i < len(fields); i++ {
		p.Keys = append(p.Keys, i)
	}
	for range fields[base+len(keyTypes):] {
		keyTypes = append(keyTypes, arrow.PrimitiveTypes.Int64)
	}
	return keyTypes, nil
}

// groupingColumn is the aggregation's output key of a GROUPING call.
func (s *selectPlanner) groupingColumn(f *sql.FuncCall) (int, bool) {
	if s.sets == nil {
		return 0, false
	}
	i, ok := s.sets.calls[f]
	return len(s.keyCols) + 1 + i, ok
}

// expandText is EXPLAIN's Expand: each set's keys.
func (p *Plan) expandText() string {
	e := p.Expand
	in := e.Schema.NumFields() - len(e.Keys) - len(e.Consts[0])
	var sets []string
	for _, m := range e.Sets {
		var names []string
		for k, on := range m {
			if on {
				names = append(names, e.Schema.Field(in+k).Name)
			}
		}
		sets = append(sets, "{"+strings.Join(names, ", ")+"}")
	}
	return fmt.Sprintf("Expand(sets=[%s], id=[$e])", strings.Join(sets, ", "))
}

// hasGroupingCall reports a GROUPING call in the select list or HAVING.
func hasGroupingCall(stmt *sql.Select) bool {
	found := false
	look := func(e sql.Expr) {
		walkExpr(e, func(x sql.Expr) bool {
			_, ok := isGroupingCall(x)
			found = found || ok
			return !found
		})
	}
	for _, it := range stmt.Items {
		if it.Expr != nil {
			look(it.Expr)
		}
	}
	if stmt.Having != nil {
		look(stmt.Having)
	}
	return found
}
