package windowop

// slotPool hands out accumulator slots: indexes into the flat arrays of
// every accumulator. Freed slots are reset and reused, so state grows with
// live windows × keys, never with rows.
type slotPool struct {
	accs []accumulator
	n    int32 // slots ever allocated
	free []int32
	// meter, when set, measures released slots again (their contents go)
	meter *stateMeter
}

// alloc returns a clean slot.
func (p *slotPool) alloc() int32 {
	if k := len(p.free); k > 0 {
		s := p.free[k-1]
		p.free = p.free[:k-1]
		return s
	}
	s := p.n
	p.n++
	for _, a := range p.accs {
		a.resize(int(p.n))
	}
	return s
}

// release resets a slot and makes it available again.
func (p *slotPool) release(s int32) {
	for _, a := range p.accs {
		a.reset(s)
	}
	if p.meter != nil {
		p.meter.touch(s)
	}
	p.free = push(p.free, s)
}

// live counts the slots in use.
func (p *slotPool) live() int { return int(p.n) - len(p.free) }
