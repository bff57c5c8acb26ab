package windowop

import "fmt"

// Session assigns session windows: SESSION(ts, gap). A row opens
// [ts, ts+gap); windows that overlap or touch (a.End == b.Start) merge, so
// two rows exactly gap apart share a session. With a per-row gap (Flink's
// dynamic session gap) each row's gap comes from a column instead.
type Session struct {
	gap int64 // 0: per row, from Config.GapIndex
}

// NewSession returns a session assigner with a constant gap.
func NewSession(gap int64) (*Session, error) {
	if gap <= 0 {
		return nil, fmt.Errorf("session gap must be positive, got %d ms", gap)
	}
	if err := checkLength("gap", gap); err != nil {
		return nil, err
	}
	return &Session{gap: gap}, nil
}

// NewDynamicSession returns a session assigner whose gap is read per row.
func NewDynamicSession() *Session { return &Session{} }

func (s *Session) String() string {
	if s.gap == 0 {
		return "SESSION(gap=per row)"
	}
	return fmt.Sprintf("SESSION(gap=%dms)", s.gap)
}

// Gap is the constant gap, or 0 for a per-row gap.
func (s *Session) Gap() int64 { return s.gap }

var _ MergingAssigner = (*Session)(nil)
