package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/windowtvf"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
)

// WindowTVF is a window table-valued function read without an aggregation
// over it (Flink's WindowTableFunction): the plan's rows come out once per
// window they belong to, with window_start, window_end and window_time
// appended; window_time is then the rows' time attribute.
type WindowTVF struct {
	Window Window
	Config windowtvf.Config
}

// tvfWithoutAggregate reports whether stmt reads a window table function
// with neither GROUP BY nor an aggregate: its rows are the TVF's rows.
func tvfWithoutAggregate(stmt *sql.Select, fns *function.Registry) bool {
	return stmt.From.Window != nil && len(stmt.GroupBy) == 0 && !stmt.Distinct.IsValid() && !selectHasAggregate(fns, stmt)
}

// windowTVFRelation plans FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), ...))
// read without an aggregation: SELECT * FROM t with each row replicated
// per window, as the table the outer query filters and projects. Rows are
// emitted as they arrive, late ones too, as Flink's operator does.
func windowTVFRelation(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*catalog.Table, *Plan, error) {
	tvf := stmt.From.Window
	if tvf.Kind == sql.Session {
		return nil, nil, sql.Errorf(sql.ErrUnsupported, tvf.At,
			"a SESSION window table function without an aggregation is not supported yet: aggregate it with GROUP BY window_start, window_end (and its PARTITION BY keys), or use TUMBLE, HOP or CUMULATE")
	}
	inner := &sql.Select{
		At:    tvf.At,
		Items: []sql.SelectItem{{At: tvf.Table.At, Star: true}},
		From:  sql.TableRef{Name: tvf.Table, At: tvf.Table.At, Hint: stmt.From.Hint},
	}
	opts.derived = true
	p, err := PlanSelect(inner, cat, opts)
	if err != nil {
		return nil, nil, err
	}
	rel, err := derivedTable(tvf.Table.Name, p, nil, tvf.Table.At)
	if err != nil {
		return nil, nil, err
	}
	if err := checkTVFTime(tvf, rel, p, cat); err != nil {
		return nil, nil, err
	}
	w, err := windowArgs(tvf.Kind, tvf.At, tvf.Args, &p.Notices)
	if err != nil {
		return nil, nil, err
	}
	cfg := windowtvf.Config{Input: p.Schema(), RowtimeIndex: rel.Column(tvf.TimeCol.Name), Size: w.Size, Slide: w.Slide, Step: w.Step, Offset: w.Offset}
	switch tvf.Kind {
	case sql.Hop:
		cfg.Kind = windowtvf.Hop
	case sql.Cumulate:
		cfg.Kind = windowtvf.Cumulate
	}
	if ts, ok := cfg.Input.Field(cfg.RowtimeIndex).Type.(*arrow.TimestampType); ok && ts.TimeZone != "" && !isUTC(opts.Location) {
		// a TIMESTAMP_LTZ rowtime is windowed in the session time zone
		cfg.Local = rowtime.NewLocalTime(opts.Location)
	}
	out, err := cfg.OutputSchema()
	if err != nil {
		return nil, nil, sql.Errorf(sql.ErrInvalid, tvf.TimeCol.At, "%v", err)
	}
	p.TVF = &WindowTVF{Window: w, Config: cfg}
	p.TimeAttr = out.NumFields() - 1 // window_time; the column windowed by is a plain timestamp now
	t, err := derivedTable(tvf.Table.Name, p, nil, tvf.Table.At)
	return t, p, err
}

// checkTVFTime checks that the DESCRIPTOR column of tvf is a time
// attribute of the relation rel (the rows of p) it windows.
func checkTVFTime(tvf *sql.WindowTVF, rel *catalog.Table, p *Plan, cat *catalog.Catalog) error {
	if t := cat.Table(tvf.Table.Name); t != nil && p.Input == nil {
		// a stored table: its errors say how to declare a time attribute
		ti := t.Column(tvf.TimeCol.Name)
		if ti < 0 {
			return sql.Errorf(sql.ErrInvalid, tvf.TimeCol.At, "column %s not found in table %s%s", tvf.TimeCol.Name, t.Name, sql.DidYouMean(tvf.TimeCol.Name, t.ColumnNames()))
		}
		if err := (&selectPlanner{table: t}).setTimeAttribute(ti, tvf.TimeCol.At); err != nil {
			return err
		}
		if t.Columns[ti].Proctime {
			return procTimeTVF(tvf)
		}
		return nil
	}
	idx := rel.Column(tvf.TimeCol.Name)
	if idx < 0 {
		return sql.Errorf(sql.ErrInvalid, tvf.TimeCol.At, "column %s not found in table %s%s", tvf.TimeCol.Name, rel.Name, sql.DidYouMean(tvf.TimeCol.Name, rel.ColumnNames()))
	}
	if rel.Columns[idx].Proctime {
		return procTimeTVF(tvf)
	}
	s := &selectPlanner{table: rel, input: p, updates: p.Updates()}
	return s.setTimeAttribute(idx, tvf.TimeCol.At)
}

func procTimeTVF(tvf *sql.WindowTVF) error {
	return sql.Errorf(sql.ErrUnsupported, tvf.TimeCol.At,
		"a window table function over the processing-time column %s without an aggregation is not supported yet; window by the rowtime, or aggregate with GROUP BY window_start, window_end", tvf.TimeCol.Name)
}

// tvfText is EXPLAIN's line for the window table function.
func (t *WindowTVF) tvfText() string {
	return fmt.Sprintf("WindowTableFunction(window=[%s], time=[%s], columns=[%s], emit=[per row as it arrives, late rows too])",
		t.Window, t.Config.Input.Field(t.Config.RowtimeIndex).Name, strings.Join([]string{"window_start", "window_end", "window_time"}, ", "))
}

// windowWhereToHaving moves the conjuncts of WHERE that read only the
// window columns of a window aggregation's TVF into HAVING. Flink filters
// them per (row, window) before the aggregation; since every row of a
// window has the same window columns, such a filter keeps or drops whole
// windows, which HAVING does after it. A conjunct that reads both a
// window column and a column of the rows is not supported yet; over
// processing time Flink itself plans no window aggregation then.
func (s *selectPlanner) windowWhereToHaving() error {
	var keep, moved sql.Expr
	for _, c := range conjuncts(s.stmt.Where) {
		var win *sql.ColumnRef
		other := false
		walkExpr(c, func(e sql.Expr) bool {
			if r, ok := e.(*sql.ColumnRef); ok {
				if s.windowColumnIndex(r) >= 0 {
					if win == nil {
						win = r
					}
				} else {
					other = true
				}
			}
			return true
		})
		switch {
		case win == nil:
			keep = andExpr(keep, c)
		case other:
			return sql.Errorf(sql.ErrUnsupported, win.At, "a WHERE condition reading both %s and the rows' columns is not supported yet in a window aggregation; filter on the window columns alone, or in HAVING", win.Name)
		default:
			if i := s.table.Column(s.tvf.TimeCol.Name); i >= 0 && s.table.Columns[i].Proctime {
				return sql.Errorf(sql.ErrUnsupported, win.At, "WHERE on %s of a processing-time window table function is, in Flink, no window aggregation; filter on it in HAVING", win.Name)
			}
			moved = andExpr(moved, c)
		}
	}
	if moved == nil {
		return nil
	}
	stmt := *s.stmt
	stmt.Where, stmt.Having = keep, andExpr(stmt.Having, moved)
	s.stmt = &stmt
	return nil
}
