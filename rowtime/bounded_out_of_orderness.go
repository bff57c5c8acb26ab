package rowtime

// BoundedOutOfOrderness is the generator behind Flink SQL's
// `WATERMARK FOR ts AS ts - INTERVAL 'd' ...`: the watermark is the maximum of
// ts - d over all rows seen so far. Unlike the DataStream API's generator of
// the same name there is no extra -1 ms (Flink SQL subtracts nothing more).
type BoundedOutOfOrderness struct {
	delay   int64
	current int64
}

// NewBoundedOutOfOrderness returns a generator with the given delay in ms
// (0 means strictly ascending timestamps are expected).
func NewBoundedOutOfOrderness(delayMillis int64) *BoundedOutOfOrderness {
	return &BoundedOutOfOrderness{delay: delayMillis, current: MinWatermark}
}

// Delay returns the configured out-of-orderness bound in ms.
func (g *BoundedOutOfOrderness) Delay() int64 { return g.delay }

// Current returns the watermark computed from every row seen so far.
func (g *BoundedOutOfOrderness) Current() int64 { return g.current }

// Assign walks one batch of event times in arrival order. It writes into
// perRow[i] the watermark in effect when row i arrives — computed from the
// rows before it, including earlier batches — and returns the watermark after
// the last row. perRow must be at least len(ts) long. Rows with a NULL time
// never reach a generator: the source treats them as bad rows.
//
// The prefix maximum makes results independent of how input is cut into
// batches: each row sees exactly the watermark it would see if rows arrived
// one at a time with a watermark emitted after each.
func (g *BoundedOutOfOrderness) Assign(ts []int64, perRow []int64) int64 {
	wm := g.current
	d := g.delay
	for i, t := range ts {
		perRow[i] = wm
		if c := SubSaturating(t, d); c > wm {
			wm = c
		}
	}
	g.current = wm
	return wm
}

// Raise moves the watermark up to wm, never down: a watermark the source
// supplies itself (SOURCE_WATERMARK()) instead of one computed from rows.
func (g *BoundedOutOfOrderness) Raise(wm int64) { g.current = max(g.current, wm) }
