package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// AttachedWindow marks a window aggregation whose windows come with its
// input rows (Flink's WindowAttachedWindowingStrategy): a GROUP BY over
// the rows of a window aggregation or a window table function that holds
// both their window_start and window_end, under any names. Nothing is
// assigned again: a row is in the window its bounds say, whose result is
// emitted once, when the watermark passes the window's end.
//
// It runs as the window operator over a tumbling window of the window's
// slide (HOP), step (CUMULATE) or size (TUMBLE), aligned so that each of
// the windows' ends is a tumbling window's end, by the rows' window_end
// less a millisecond (their window_time). window_start and window_end are
// grouping keys, so each group is one of the input's windows whatever
// tumbling window holds it, and their values are the result's bounds.
type AttachedWindow struct {
	StartKey, EndKey int // positions of the bounds among the plan's keys
	// Start and End name the input columns of the bounds, for EXPLAIN.
	Start, End string
}

// attachedRowtimeName names the column the attached window fires by.
const attachedRowtimeName = "$window_time"

// attachWindow makes the GroupAggregate s planned (GROUP BY without a
// window) an attached window aggregation when its keys hold exactly one
// window_start and one window_end of the relation it reads, as Flink's
// StreamPhysicalWindowAggregateRule does. Other GROUP BYs stay a
// GroupAggregate; so do a bound inside an expression (no longer a window
// property), the values of a legacy GROUP BY HOP(...) window (HOP_START is
// not a window property in Flink), an update stream, grouping sets,
// SESSION and processing-time windows, and windows over a TIMESTAMP_LTZ
// in a session time zone other than UTC (their bounds are wall-clock
// times the watermark cannot be compared with).
func (s *selectPlanner) attachWindow(cat *catalog.Catalog) {
	if !s.grouped || s.input == nil || s.updates || s.joinCols != nil || s.sets != nil ||
		s.stmt.GroupingSets != nil || hasGroupingCall(s.stmt) {
		return
	}
	start, end := -1, -1
	for i, k := range s.keyCols {
		if k < 0 {
			continue // an expression key: a value, not a window property
		}
		switch windowColumnOf(s.stmt.From, s.table.Columns[k].Name, cat, 0) {
		case windowStartColumn:
			if start >= 0 {
				return // Flink too takes one window_start and one window_end
			}
			start = i
		case windowEndColumn:
			if end >= 0 {
				return
			}
			end = i
		}
	}
	if start < 0 || end < 0 {
		return
	}
	win := windowPlanOf(s.input)
	if win == nil || win.Proctime {
		return
	}
	w := win.Window
	if win.TVF != nil {
		w = win.TVF.Window
	}
	switch w.Kind {
	case sql.Tumble, sql.Hop, sql.Cumulate:
	default:
		return
	}
	if rt, ok := windowedType(win).(*arrow.TimestampType); ok && rt.TimeZone != "" && !isUTC(win.Location) {
		return
	}
	s.grouped = false
	s.timeCol = -1
	s.window = w
	s.attached = &AttachedWindow{
		StartKey: start, EndKey: end,
		Start: s.table.Columns[s.keyCols[start]].Name, End: s.table.Columns[s.keyCols[end]].Name,
	}
}

// attachedRowtime is the expression the attached window fires by: the
// window_end column less a millisecond, the window's window_time.
func attachedRowtime(end string) sql.Expr {
	return &sql.Binary{Op: "-", L: &sql.ColumnRef{Name: end},
		R: &sql.IntervalLiteral{Millis: 1, Text: "INTERVAL '0.001' SECOND"}}
}

// attachedAssigner is the tumbling window an attached window runs as: one
// whose ends include every end of w's windows, so each input window fires
// as soon as the watermark passes its end.
func attachedAssigner(w Window) (windowop.Assigner, error) {
	switch w.Kind {
	case sql.Hop:
		// HOP windows end at offset + size + k*slide
		return windowop.NewTumble(w.Slide, (w.Offset+w.Size)%w.Slide)
	case sql.Cumulate:
		// CUMULATE windows end at offset + k*step (size is a multiple of step)
		return windowop.NewTumble(w.Step, w.Offset%w.Step)
	case sql.Tumble:
		return windowop.NewTumble(w.Size, w.Offset)
	}
	return nil, fmt.Errorf("internal: an attached %s window", w.Kind)
}

// attachedText is EXPLAIN's window of an attached window aggregation.
func (a *AttachedWindow) text(w Window) string {
	return fmt.Sprintf("attached: %s from %s, %s", w, a.Start, a.End)
}

// groupsByWindowBounds reports whether q, a GROUP BY without a window
// table function, groups by one window_start and one window_end of the
// relation it reads: an attached window aggregation, whose bounds stay
// window properties for the queries over it. (attachWindow still plans
// some of them as a GroupAggregate; those who ask then find no window
// plan under the columns.)
func groupsByWindowBounds(q *sql.Select, cat *catalog.Catalog, depth int) bool {
	if q.GroupingSets != nil {
		return false
	}
	start, end := 0, 0
	for _, e := range q.GroupBy {
		c, ok := e.(*sql.ColumnRef)
		if !ok {
			continue
		}
		switch windowColumnOf(q.From, c.Name, cat, depth) {
		case windowStartColumn:
			start++
		case windowEndColumn:
			end++
		}
	}
	return start == 1 && end == 1
}
