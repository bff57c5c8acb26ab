package windowop

import "fmt"

// Tumble assigns fixed-size, non-overlapping windows: TUMBLE(ts, size [, offset]).
type Tumble struct {
	Size   int64 // ms, > 0
	Offset int64 // ms; windows start at offset + k*size
}

// NewTumble validates and returns a tumbling assigner.
func NewTumble(size, offset int64) (*Tumble, error) {
	if size <= 0 {
		return nil, fmt.Errorf("tumbling window size must be positive, got %d ms", size)
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

func (*Tumble) IsEventTime() bool { return true }

func (t *Tumble) String() string {
	if t.Offset != 0 {
		return fmt.Sprintf("TUMBLE(size=%dms, offset=%dms)", t.Size, t.Offset)
	}
	return fmt.Sprintf("TUMBLE(size=%dms)", t.Size)
}

// AssignWindows writes each row's tumbling window into out.
func (t *Tumble) AssignWindows(ts []int64, out []Window) {
	size, off := t.Size, t.Offset
	out = out[:len(ts)]
	for i, v := range ts {
		s := WindowStart(v, off, size)
		out[i] = Window{Start: s, End: s + size}
	}
}

var _ SingleWindowAssigner = (*Tumble)(nil)
