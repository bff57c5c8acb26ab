package windowop

// Assigner decides which windows a row belongs to. The operator picks its
// processing mode once, at construction, from the assigner's kind:
// SliceAssigner (TUMBLE, HOP, CUMULATE) or MergingAssigner (SESSION).
type Assigner interface {
	String() string
}

// SliceAssigner describes windows that are unions of fixed-size panes
// (slices): each row updates exactly one pane's accumulator, and a window's
// result merges its panes when it fires, so the cost per row does not grow
// with size/slide.
type SliceAssigner interface {
	Assigner
	// Pane returns the pane size and offset: a row at ts is in the pane
	// starting at WindowStart(ts, offset, size).
	Pane() (size, offset int64)
	// WindowsOfPane appends to dst every window that contains the pane
	// starting at p, in the order their timers fire: increasing end, then
	// increasing start. The pane is freed when the last one is cleaned up.
	WindowsOfPane(p int64, dst []Window) []Window
}

// MergingAssigner describes session windows: a row opens [ts, ts+gap), and
// windows that overlap or touch merge.
type MergingAssigner interface {
	Assigner
	// Gap returns the constant gap in ms, or 0 when the gap comes per row
	// from Config.GapIndex.
	Gap() int64
}
