package windowop

import "fmt"

// Tumble assigns fixed-size, non-overlapping windows: TUMBLE(ts, size [, offset]).
// Its pane is the window itself.
type Tumble struct {
	Size   int64 // ms, > 0
	Offset int64 // ms; windows start at offset + k*size
}

// NewTumble validates and returns a tumbling assigner.
func NewTumble(size, offset int64) (*Tumble, error) {
	if size <= 0 {
		return nil, fmt.Errorf("tumbling window size must be positive, got %d ms", size)
	}
	if err := checkLength("size", size); err != nil {
		return nil, err
	}
	if err := checkLength("offset", offset); err != nil {
		return nil, err
	}
	return &Tumble{Size: size, Offset: offset}, nil
}

// WindowStart returns the start of the window of the given size and offset
// that contains ts: ts - floorMod(ts - offset, size). Go's % truncates toward
// zero, so negative timestamps need the floor fix-up.
func WindowStart(ts, offset, size int64) int64 {
	r := (ts - offset) % size
	if r < 0 {
		r += size
	}
	return ts - r
}

func (t *Tumble) String() string {
	if t.Offset != 0 {
		return fmt.Sprintf("TUMBLE(size=%dms, offset=%dms)", t.Size, t.Offset)
	}
	return fmt.Sprintf("TUMBLE(size=%dms)", t.Size)
}

// Pane is the window: a tumbling window has one pane.
func (t *Tumble) Pane() (int64, int64) { return t.Size, t.Offset }

// WindowsOfPane returns the one window the pane is.
func (t *Tumble) WindowsOfPane(p int64, dst []Window) []Window {
	return append(dst, Window{Start: p, End: p + t.Size})
}

var _ SliceAssigner = (*Tumble)(nil)
