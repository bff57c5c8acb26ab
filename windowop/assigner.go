package windowop

// Assigner decides which windows a row belongs to.
type Assigner interface {
	// IsEventTime reports whether windows are in event time (rowtime) rather
	// than processing time.
	IsEventTime() bool
	String() string
}

// SingleWindowAssigner is an assigner that puts each row into exactly one
// window (TUMBLE). The operator detects it once, at construction, and uses a
// tight loop with one window per row.
type SingleWindowAssigner interface {
	Assigner
	// AssignWindows writes the window of each timestamp ts[i] into out[i].
	AssignWindows(ts []int64, out []Window)
}
