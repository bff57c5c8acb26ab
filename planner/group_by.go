package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/planner/intervalfold"
	"github.com/wsql/wsql/sql"
)

// planGroupWindow reads GROUP BY with one group window plus key columns.
func (s *selectPlanner) planGroupWindow() error {
	for _, e := range s.stmt.GroupBy {
		switch g := e.(type) {
		case *sql.WindowCall:
			if s.windowCall != nil {
				return sql.Errorf(sql.ErrInvalid, g.At, "only one group window is allowed in GROUP BY; the first is %s at %s", s.windowCall.Kind, s.windowCall.At)
			}
			s.windowCall = g
		case *sql.ColumnRef:
			if err := s.addKey(g); err != nil {
				return err
			}
		default:
			if f, ok := e.(*sql.FuncCall); ok && s.fns.Lookup(strings.ToUpper(f.Name)) == nil {
				// most likely a misspelled window: name it rather than report
				// a GROUP BY without one
				return sql.Errorf(sql.ErrInvalid, f.At, "unknown function %s%s", f.Name, sql.DidYouMean(f.Name, s.fns.GroupByNames()))
			}
			if hasAggregate(s.fns, e) {
				return sql.Errorf(sql.ErrInvalid, e.Pos(), "aggregates are not allowed in GROUP BY")
			}
			// an expression key, computed per row before the window
			s.keyExprs = append(s.keyExprs, keyExpr{pos: len(s.keyCols), e: e})
			s.keyCols = append(s.keyCols, -1)
		}
	}
	w := s.windowCall
	if w == nil {
		// no window: a GroupAggregate, whose results are an update stream
		s.grouped = true
		s.timeCol = -1
		return nil
	}
	if size, slide, ok := w.CountSizes(); ok {
		// count windows need no time attribute: rows count in arrival order
		s.timeCol = -1
		s.window = Window{Kind: sql.CountWindow, Size: size, Slide: slide, At: w.At}
		return nil
	}
	if len(w.Args) == 0 {
		return sql.Errorf(sql.ErrInvalid, w.At, "%s needs a time attribute and its intervals", w.Kind)
	}
	col, ok := w.Args[0].(*sql.ColumnRef)
	if !ok {
		return sql.Errorf(sql.ErrInvalid, w.Args[0].Pos(), "the first argument of %s must be a time attribute column", w.Kind)
	}
	idx, err := s.resolve(col)
	if err != nil {
		return err
	}
	if err := s.setTimeAttribute(idx, col.At); err != nil {
		return err
	}
	if w.Kind == sql.Session && len(w.Args) == 2 {
		if _, ok := w.Args[1].(*sql.IntervalLiteral); !ok {
			return s.dynamicGap(w)
		}
	}
	s.window, err = windowArgs(w.Kind, w.At, w.Args[1:], &s.notices)
	return err
}

// dynamicGap reads SESSION(ts, INTERVAL '1' SECOND * col) (or col *
// INTERVAL ...): a session gap computed per row from an integer column,
// Flink's dynamic session gap, which Flink SQL itself lacks.
func (s *selectPlanner) dynamicGap(w *sql.WindowCall) error {
	const usage = "a session gap is an interval, or an interval times an integer column: SESSION(ts, INTERVAL '1' SECOND * gap_seconds)"
	b, ok := w.Args[1].(*sql.Binary)
	if !ok || b.Op != "*" {
		return sql.Errorf(sql.ErrInvalid, w.Args[1].Pos(), "%s", usage)
	}
	iv, ivOK := b.L.(*sql.IntervalLiteral)
	col, colOK := b.R.(*sql.ColumnRef)
	if !ivOK || !colOK {
		iv, ivOK = b.R.(*sql.IntervalLiteral)
		col, colOK = b.L.(*sql.ColumnRef)
	}
	if !ivOK || !colOK {
		return sql.Errorf(sql.ErrInvalid, w.Args[1].Pos(), "%s", usage)
	}
	if err := intervalfold.SessionGapUnit(iv); err != nil {
		return err
	}
	idx, err := s.resolve(col)
	if err != nil {
		return err
	}
	c := s.table.Columns[idx]
	switch c.Type.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
	default:
		return sql.Errorf(sql.ErrInvalid, col.At, "the session gap column %s must be an integer, not %s", c.Name, c.SQLType)
	}
	if c.Computed != nil {
		return sql.Errorf(sql.ErrUnsupported, col.At, "a session gap from the computed column %s is not supported yet; use a physical column", c.Name)
	}
	s.gapCol = idx
	s.window = Window{Kind: sql.Session, Gap: iv.Millis, GapColumn: c.Name, At: w.At}
	return nil
}

// planTVF reads FROM TABLE(TUMBLE(...)) with GROUP BY window_start,
// window_end and key columns.
func (s *selectPlanner) planTVF() error {
	tvf := s.tvf
	if !strings.EqualFold(tvf.Table.Name, s.table.Name) {
		return sql.Errorf(sql.ErrInvalid, tvf.Table.At, "internal: TVF table %s differs from FROM table %s", tvf.Table.Name, s.table.Name)
	}
	idx := s.table.Column(tvf.TimeCol.Name)
	if idx < 0 {
		return sql.Errorf(sql.ErrInvalid, tvf.TimeCol.At, "column %s not found in table %s%s", tvf.TimeCol.Name, s.table.Name, sql.DidYouMean(tvf.TimeCol.Name, s.table.ColumnNames()))
	}
	if err := s.setTimeAttribute(idx, tvf.TimeCol.At); err != nil {
		return err
	}
	var err error
	if s.window, err = windowArgs(tvf.Kind, tvf.At, tvf.Args, &s.notices); err != nil {
		return err
	}
	var start, end bool
	for _, e := range s.stmt.GroupBy {
		c, ok := e.(*sql.ColumnRef)
		if !ok {
			if w, ok := e.(*sql.WindowCall); ok {
				return sql.Errorf(sql.ErrInvalid, w.At, "a query over a window table function groups by window_start and window_end, not by %s(...)", w.Kind)
			}
			return sql.Errorf(sql.ErrUnsupported, e.Pos(), "GROUP BY on expressions is not supported yet; group by columns")
		}
		switch {
		case s.isWindowColumn(c, tvfStart):
			start = true
		case s.isWindowColumn(c, tvfEnd):
			end = true
		case s.isWindowColumn(c, tvfTime):
		default:
			if err := s.addKey(c); err != nil {
				return err
			}
		}
	}
	if !start || !end {
		at := s.stmt.At
		if len(s.stmt.GroupBy) > 0 {
			at = s.stmt.GroupBy[0].Pos()
		}
		return sql.Errorf(sql.ErrUnsupported, at, "a query over a window table function must GROUP BY window_start, window_end; other forms are not supported yet")
	}
	if tvf.Kind == sql.Session {
		return s.checkSessionKeys() // session_tvf.go
	}
	return nil
}

// isWindowColumn reports whether c names one of the TVF's window columns
// (and not a real column of the same name).
func (s *selectPlanner) isWindowColumn(c *sql.ColumnRef, name string) bool {
	return s.tvf != nil && strings.EqualFold(c.Name, name) && s.table.Column(c.Name) < 0
}

// setTimeAttribute checks that the window's time column is a time
// attribute: the table's rowtime or a PROCTIME() column.
func (s *selectPlanner) setTimeAttribute(idx int, at sql.Pos) error {
	t := s.table
	c := t.Columns[idx]
	s.timeCol = idx
	if c.Proctime || (t.Watermark != nil && t.Watermark.Index == idx) {
		return nil
	}
	if _, ok := t.Attached.(*valuesRows); ok {
		// Flink: "The window function requires the timecol is a time attribute type"
		return sql.Errorf(sql.ErrInvalid, at, "column %s is not a time attribute: the rows of VALUES have no time attribute to window by", c.Name)
	}
	if t.Watermark != nil {
		return sql.Errorf(sql.ErrInvalid, at, "column %s is not a time attribute; the time attribute of table %s is %s",
			c.Name, t.Name, t.Watermark.Column)
	}
	if s.updates {
		// Flink: the changes of an update stream have no time attribute
		return sql.Errorf(sql.ErrInvalid, at, "column %s is not a time attribute: %s is an update stream, whose changes have none", c.Name, t.Name)
	}
	if s.input != nil && s.input.Join != nil {
		// Flink: "Rowtime attributes must not be in the input rows of a
		// regular join."
		return sql.Errorf(sql.ErrInvalid, at, "column %s is not a time attribute: the rows of a regular join keep none (Flink turns them into plain timestamps); window each side before joining, or join by an interval (a.ts BETWEEN b.ts - INTERVAL ... AND b.ts) or by window", c.Name)
	}
	if s.input != nil {
		return sql.Errorf(sql.ErrInvalid, at, "column %s is not a time attribute: in the result of %s only a rowtime passed through, *_ROWTIME or window_time stays one", c.Name, t.Name)
	}
	return sql.Errorf(sql.ErrInvalid, at, "column %s is not a time attribute: declare WATERMARK FOR %s AS %s - INTERVAL '5' SECOND in CREATE TABLE %s, or window by a PROCTIME() column",
		c.Name, c.Name, c.Name, t.Name)
}

func (s *selectPlanner) addKey(c *sql.ColumnRef) error {
	idx, err := s.resolve(c)
	if err != nil {
		return err
	}
	for _, k := range s.keyCols {
		if k == idx {
			return sql.Errorf(sql.ErrInvalid, c.At, "column %s appears twice in GROUP BY", s.table.Columns[idx].Name)
		}
	}
	if s.table.Columns[idx].Proctime {
		return sql.Errorf(sql.ErrUnsupported, c.At, "grouping by the processing-time column %s is not supported yet", c.Name)
	}
	s.keyCols = append(s.keyCols, idx)
	return nil
}
