package windowop

import (
	"fmt"

	"github.com/wsql/wsql/rowtime"
)

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

// MaxWindowsPerRow is the most windows of a HOP or CUMULATE one row may
// belong to: ⌈size/slide⌉ or size/step. A pane opens every window it is
// in, each with its timers, so HOP(ts, INTERVAL '0.001' SECOND,
// INTERVAL '1' DAY) would open 86.4 million windows for its first row; it
// is refused instead, as COUNT_WINDOW's overlap is (MaxCountWindowOverlap).
const MaxWindowsPerRow = 100_000

// HopWindowsPerRow is how many windows of HOP(slide, size) a row is in,
// at most: ⌈size/slide⌉.
func HopWindowsPerRow(slide, size int64) int64 { return (size-1)/slide + 1 }

// CumulateWindowsPerRow is how many windows of CUMULATE(step, size) a row
// is in, at most: size/step (a row in the first step is in all of them).
func CumulateWindowsPerRow(step, size int64) int64 { return size / step }

// checkWindowsPerRow refuses windows that put a row in more than
// MaxWindowsPerRow windows, naming the smallest slide or step allowed.
func checkWindowsPerRow(kind, what string, per, by, size int64) error {
	if per <= MaxWindowsPerRow {
		return nil
	}
	return fmt.Errorf("%s %s of %d ms with a size of %d ms puts every row in %d windows; at most %d are supported: use a %s of at least %d ms",
		kind, what, by, size, per, MaxWindowsPerRow, what, (size-1)/MaxWindowsPerRow+1)
}

// checkLength refuses a window length (size, slide, step or gap) or offset
// beyond rowtime.MaxWindowLength: with event times in the accepted range,
// every window bound then stays far inside int64.
func checkLength(what string, ms int64) error {
	if ms > rowtime.MaxWindowLength || ms < -rowtime.MaxWindowLength {
		return fmt.Errorf("window %s of %d ms is longer than the longest interval, %d ms", what, ms, rowtime.MaxWindowLength)
	}
	return nil
}

// maxRowTime bounds the event times the window operator takes (2^62 ms,
// about 146 million years): rows from sources are inside the accepted
// range, and results cascaded over windows of at most MaxWindowLength
// stay far inside this bound, so no window bound of a row can overflow.
const maxRowTime = int64(1) << 62
