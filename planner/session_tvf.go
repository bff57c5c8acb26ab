package planner

import (
	"strings"

	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// checkSessionKeys checks the GROUP BY of a SESSION window table function
// against its PARTITION BY: as in Flink (WindowUtil's
// validGroupKeyPartitionKey), a window aggregation over sessions groups by
// exactly the partition keys, besides window_start and window_end. It is
// then the group window GROUP BY keys, SESSION(ts, gap): sessions per key.
// Flink plans any other grouping as an aggregation without a window over
// the session rows, an update stream wsql does not build yet.
func (s *selectPlanner) checkSessionKeys() error {
	tvf := s.tvf
	part := map[int]sql.Ident{}
	for _, k := range tvf.PartitionBy {
		idx := s.table.Column(k.Name)
		if idx < 0 {
			return sql.Errorf(sql.ErrInvalid, k.At, "column %s not found in table %s%s", k.Name, s.table.Name, sql.DidYouMean(k.Name, s.table.ColumnNames()))
		}
		if _, twice := part[idx]; twice {
			return sql.Errorf(sql.ErrInvalid, k.At, "column %s appears twice in PARTITION BY", k.Name)
		}
		part[idx] = k
	}
	var names []string
	for _, k := range tvf.PartitionBy {
		names = append(names, k.Name)
	}
	for i, k := range s.keyCols {
		if _, ok := part[k]; ok && k >= 0 {
			continue
		}
		const other = "grouping by other keys is, in Flink, an aggregation without a window over the session rows, which is not supported yet"
		if len(names) == 0 {
			return sql.Errorf(sql.ErrUnsupported, s.sessionKeyPos(i),
				"a SESSION window table function without PARTITION BY finds sessions over all rows: GROUP BY window_start, window_end alone, or write SESSION(TABLE %s PARTITION BY %s, ...) for sessions per key; %s",
				tvf.Table.Name, sqlfmt.Expr(s.stmt.GroupBy[s.groupByIndex(i)]), other)
		}
		return sql.Errorf(sql.ErrUnsupported, s.sessionKeyPos(i),
			"a GROUP BY over a SESSION window table function groups by window_start, window_end and exactly its PARTITION BY keys (%s); %s", strings.Join(names, ", "), other)
	}
	if len(s.keyCols) < len(part) {
		for _, k := range tvf.PartitionBy {
			if indexOf(s.keyCols, s.table.Column(k.Name)) < 0 {
				return sql.Errorf(sql.ErrUnsupported, k.At,
					"the PARTITION BY key %s of SESSION must be in GROUP BY too (GROUP BY window_start, window_end, %s): sessions are found per partition; without it, in Flink, the result is an aggregation without a window over the session rows, which is not supported yet",
					k.Name, strings.Join(names, ", "))
			}
		}
	}
	return nil
}

// sessionKeyPos is where the i-th grouping key is written in GROUP BY.
func (s *selectPlanner) sessionKeyPos(i int) sql.Pos {
	if g := s.groupByIndex(i); g >= 0 {
		return s.stmt.GroupBy[g].Pos()
	}
	return s.stmt.At
}

// groupByIndex is the GROUP BY item of the i-th grouping key (window
// columns are no keys), or -1.
func (s *selectPlanner) groupByIndex(i int) int {
	n := 0
	for g, e := range s.stmt.GroupBy {
		if c, ok := e.(*sql.ColumnRef); ok && s.windowColumnIndex(c) >= 0 {
			continue
		}
		if n == i {
			return g
		}
		n++
	}
	return -1
}
