package rowtime

import "github.com/wsql/wsql/checkpoint"

// SaveState writes the watermark of every split, whether it ended or is
// idle, and the combined watermark: what a restart needs so that the same
// rows are late as in an uninterrupted run (unlike Flink, which starts
// watermarks over after a restore).
func (c *CombinedWatermark) SaveState(e *checkpoint.Encoder) {
	e.Int(c.combined)
	e.Uint(uint64(len(c.splits)))
	for i := range c.splits {
		s := &c.splits[i]
		e.Int(s.gen.current)
		e.Bool(s.ended)
		e.Bool(s.idle)
	}
}

// RestoreState reads what SaveState wrote into a CombinedWatermark built
// for the same splits. A split's idleness timer starts again now: the
// processing time of the old run is gone.
func (c *CombinedWatermark) RestoreState(d *checkpoint.Decoder) {
	combined := d.Int()
	n := d.Len(3)
	if d.Err() == nil && n != len(c.splits) {
		d.Fail("%d split watermarks for %d splits", n, len(c.splits))
	}
	if d.Err() != nil {
		return
	}
	c.combined = combined
	for i := range c.splits {
		s := &c.splits[i]
		s.gen.current = d.Int()
		s.ended = d.Bool()
		s.idle = d.Bool()
	}
}
