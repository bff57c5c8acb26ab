package windowop

import "fmt"

// Cumulate assigns cumulating windows: CUMULATE(ts, step, size [, offset]).
// Every size-long period starting at offset + k*size has windows
// [start, start+step), [start, start+2*step), ... [start, start+size);
// its panes are step long.
type Cumulate struct {
	Step   int64
	Size   int64
	Offset int64
}

// NewCumulate validates and returns a cumulating assigner.
func NewCumulate(step, size, offset int64) (*Cumulate, error) {
	if step <= 0 || size <= 0 || size%step != 0 {
		return nil, fmt.Errorf("cumulating window step and size must be positive and size a multiple of step, got %d ms and %d ms", step, size)
	}
	if err := checkLength("step", step); err != nil {
		return nil, err
	}
	if err := checkLength("size", size); err != nil {
		return nil, err
	}
	if err := checkLength("offset", offset); err != nil {
		return nil, err
	}
	if err := checkWindowsPerRow("CUMULATE", "step", CumulateWindowsPerRow(step, size), step, size); err != nil {
		return nil, err
	}
	return &Cumulate{Step: step, Size: size, Offset: offset}, nil
}

func (c *Cumulate) String() string {
	s := fmt.Sprintf("CUMULATE(step=%dms, size=%dms", c.Step, c.Size)
	if c.Offset != 0 {
		s += fmt.Sprintf(", offset=%dms", c.Offset)
	}
	return s + ")"
}

// Pane is one step, aligned with the period.
func (c *Cumulate) Pane() (int64, int64) { return c.Step, c.Offset }

// WindowsOfPane lists the windows of the pane's period that end after the
// pane starts: [start, p+step), [start, p+2*step), ..., [start, start+size).
func (c *Cumulate) WindowsOfPane(p int64, dst []Window) []Window {
	start := WindowStart(p, c.Offset, c.Size)
	for end := p + c.Step; end <= start+c.Size; end += c.Step {
		dst = append(dst, Window{Start: start, End: end})
	}
	return dst
}

var _ SliceAssigner = (*Cumulate)(nil)
