package windowop

import "fmt"

// Hop assigns sliding windows: HOP(ts, slide, size [, offset]) — slide
// first, as in Flink. Windows start at offset + k*slide and last size. The
// size need not be a multiple of the slide: panes are gcd(slide, size)
// long, so every window is a whole number of panes.
type Hop struct {
	Slide  int64
	Size   int64
	Offset int64
	pane   int64
}

// NewHop validates and returns a hopping assigner.
func NewHop(slide, size, offset int64) (*Hop, error) {
	if slide <= 0 || size <= 0 {
		return nil, fmt.Errorf("hopping window slide and size must be positive, got %d ms and %d ms", slide, size)
	}
	if err := checkLength("slide", slide); err != nil {
		return nil, err
	}
	if err := checkLength("size", size); err != nil {
		return nil, err
	}
	if err := checkLength("offset", offset); err != nil {
		return nil, err
	}
	if err := checkWindowsPerRow("HOP", "slide", HopWindowsPerRow(slide, size), slide, size); err != nil {
		return nil, err
	}
	return &Hop{Slide: slide, Size: size, Offset: offset, pane: gcd(slide, size)}, nil
}

func (h *Hop) String() string {
	s := fmt.Sprintf("HOP(slide=%dms, size=%dms", h.Slide, h.Size)
	if h.Offset != 0 {
		s += fmt.Sprintf(", offset=%dms", h.Offset)
	}
	return s + ")"
}

// Pane is gcd(slide, size) long, aligned with the offset.
func (h *Hop) Pane() (int64, int64) { return h.pane, h.Offset }

// WindowsOfPane lists the windows [s, s+size) with s = lastStart,
// lastStart - slide, ... while the window still reaches past the pane's
// start. A slide larger than the size leaves panes in no window.
func (h *Hop) WindowsOfPane(p int64, dst []Window) []Window {
	last := WindowStart(p, h.Offset, h.Slide)
	first := len(dst)
	for s := last; s > p-h.Size; s -= h.Slide {
		dst = append(dst, Window{Start: s, End: s + h.Size})
	}
	// built from the latest start down: reverse into increasing end order
	for i, j := first, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

var _ SliceAssigner = (*Hop)(nil)
