package generator

import (
	"context"
	"time"
)

// pacer paces a generator's read at rate rows per second of wall time,
// counted from where this read starts: the first row it paces is due at
// once and each later one 1/rate seconds after the one before. A read
// resumed from a checkpoint starts at the checkpoint's row, so it does
// not first wait out the time of the rows delivered before the restart
// (which made a crash-and-restart loop sleep for ever longer).
type pacer struct {
	rate float64
	now  func() time.Time // time.Now; tests inject a clock
	// sleep waits for d or until ctx is done (then its error); tests
	// record the waits
	sleep func(ctx context.Context, d time.Duration) error

	started bool
	start   time.Time // when row from was due
	from    int64     // the first row this read paced
}

func newPacer(rate float64) *pacer {
	return &pacer{rate: rate, now: time.Now, sleep: sleepContext}
}

// due returns when row may be generated. The first call fixes the start:
// that row is due now.
func (p *pacer) due(row int64) time.Time {
	if !p.started {
		p.started, p.start, p.from = true, p.now(), row
	}
	return p.start.Add(time.Duration(float64(row-p.from) / p.rate * float64(time.Second)))
}

// wait sleeps until row is due, or returns ctx's error once the run is
// stopped: a stop never waits out the pace.
func (p *pacer) wait(ctx context.Context, row int64) error {
	if d := p.due(row).Sub(p.now()); d > 0 {
		return p.sleep(ctx, d)
	}
	return nil
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
