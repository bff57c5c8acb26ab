package pipeline

// WatermarkGate keeps the order rule for an operator that passes
// watermarks on: only a watermark greater than the last one it let through
// advances; a stale one is ignored. The zero value lets the first through.
type WatermarkGate struct {
	last int64
	seen bool
}

// Advance reports whether wm is greater than every watermark let through
// before, and if so lets it through.
func (g *WatermarkGate) Advance(wm int64) bool {
	if g.seen && wm <= g.last {
		return false
	}
	g.last, g.seen = wm, true
	return true
}
