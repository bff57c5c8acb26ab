package windowop

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/rowtime"
)

// sessionMode runs SESSION windows through a MergingWindowSet of every key.
// A row opens [ts, ts+gap); if that intersects sessions of its key they
// merge into one, whose state slot is the first session's; the timers of
// the windows that disappeared are deleted and the merged window's are
// registered. The lateness check runs on the merged window. Under the
// event-time trigger the timers are sessionTimers, which follow sessions
// without work per row; other triggers register through a TimerService.
type sessionMode struct {
	op   *WindowOperator
	gap  int64 // 0: per row from Config.GapIndex
	sets MergingWindowSet

	timers  *sessionTimers // nil: generic timers
	generic *TimerService

	gaps   []int64 // per-row scratch for a dynamic gap
	idx    []int
	merged []Mapping
}

func newSessionMode(op *WindowOperator, a MergingAssigner) *sessionMode {
	m := &sessionMode{op: op, gap: a.Gap()}
	if op.eventTimeTrigger {
		utc := op.cfg.Local == nil
		m.timers = &sessionTimers{op: op, sets: &m.sets, utc: utc, extendsFree: utc && op.cfg.AllowedLateness == 0}
		op.timers = m.timers
	} else {
		m.generic = NewTimerService()
		op.timers = m.generic
	}
	return m
}

func (m *sessionMode) processRows(rec arrow.RecordBatch, times []int64, keyIDs []uint32, wms []int64, slots []int32) error {
	op := m.op
	m.sets.Grow(int(op.keys.n))
	gaps, bad := m.rowGaps(rec, len(times))
	n := len(times)
	if bad >= 0 {
		n = bad // process the rows before a bad gap, then fail: batch sizes must not matter
	}
	segStart := 0
	var run sessionRun
	for i, ts := range times[:n] {
		if wms != nil {
			if wm := wms[i]; wm > op.watermark {
				if run.session != nil {
					run.settle(m.timers)
				}
				if wm >= op.nextTimer && m.timers != nil {
					// stale entries only need re-arming, not a firing
					op.nextTimer = m.timers.settle(wm)
				}
				if wm >= op.nextTimer {
					op.updateAccumulators(rec, slots, segStart, i)
					segStart = i
					op.advance(wm)
				} else {
					op.watermark = wm
				}
			}
		}
		gap := m.gap
		if gaps != nil {
			gap = gaps[i]
		}
		k := keyIDs[i]
		set := &m.sets
		w := Window{Start: ts, End: ts + gap}
		if r := run.session; r != nil {
			if k == run.key && r.Window.Start <= ts && ts <= r.Window.End {
				slots[i] = r.State
				if w.End > r.Window.End {
					r.Window.End, run.grew = w.End, true
				}
				continue
			}
			run.settle(m.timers)
		}
		if m.timers != nil {
			// A row in or just after its key's last session, as nearly
			// every row of a stream in event-time order is, intersects
			// that session alone (the sessions before it end before it
			// starts) and at most extends its end: the merge of one
			// window, made in place without the general search (Nexmark
			// q11: 0.75 to 0.63 CPU-s).
			if l := set.lists.list(k); len(l) > 0 {
				last := &l[len(l)-1]
				if last.Window.Start <= ts && ts <= last.Window.End {
					slots[i] = last.State
					if w.End > last.Window.End {
						last.Window.End = w.End
						m.timers.extended(last.State, last.Window)
					}
					run = sessionRun{session: last, key: k}
					continue
				}
			}
		}
		m.idx = set.Overlapping(k, w, m.idx[:0])
		if len(m.idx) == 0 {
			if op.isLate(w) {
				slots[i] = -1
				op.stats.LateRowsDropped++
				op.stats.Lateness.Add(op.watermark - op.cleanupTime(w) + 1)
				op.late.add(i, w, op.watermark)
				continue
			}
			s := op.slots.alloc()
			set.Add(k, w, s)
			if m.timers != nil {
				m.timers.opened(k, s, w)
			} else {
				m.registerTimers(k, w)
			}
			slots[i] = s
			continue
		}
		result := w
		for _, j := range m.idx {
			mw := set.Get(k, j).Window
			result.Start = min(result.Start, mw.Start)
			result.End = max(result.End, mw.End)
		}
		first := set.Get(k, m.idx[0])
		if result == first.Window && len(m.idx) == 1 {
			slots[i] = first.State // inside an open session
			continue
		}
		if len(m.idx) > 1 {
			// Rows before this one may still be folding into slots that
			// are about to merge: fold them first.
			op.updateAccumulators(rec, slots, segStart, i)
			segStart = i
		}
		old := first.Window
		var kept Mapping
		kept, m.merged = set.Merge(k, m.idx, result, m.merged)
		if m.timers == nil {
			m.deleteTimers(k, old)
		}
		for _, gone := range m.merged {
			op.mergeSlot(kept.State, gone.State)
			op.slots.release(gone.State)
			if m.timers != nil {
				m.timers.closed(gone.State)
			} else {
				m.deleteTimers(k, gone.Window)
			}
		}
		// Windows in the set are never late (they would have been cleaned
		// up), and the merged window ends no earlier than they do.
		if m.timers != nil {
			m.timers.changed(kept.State, result)
		} else {
			m.registerTimers(k, result)
		}
		slots[i] = kept.State
	}
	if run.session != nil {
		run.settle(m.timers)
	}
	op.updateAccumulators(rec, slots, segStart, n)
	if bad >= 0 {
		op.stats.RowsIn -= int64(len(times) - bad)
		col := rec.Column(m.op.cfg.GapIndex)
		gap := "NULL"
		if col.IsValid(bad) {
			gap = col.ValueStr(bad) + " ms"
		}
		return fmt.Errorf("%w: the row with event time %s has gap %s; a session gap must be positive and at most %d ms (the longest interval)",
			ErrBadGap, time.UnixMilli(times[bad]).UTC().Format("2006-01-02 15:04:05.000"), gap, rowtime.MaxWindowLength)
	}
	return nil
}

// sessionRun is the session of the rows before, while they are of one key
// and fall in it; grew tells that its end moved since its timers last
// heard. Rows of the same key need neither the key's list nor the timers
// until the key changes or the watermark moves (Nexmark q11: half the
// bids come right after one of the same bidder; 5% less CPU).
type sessionRun struct {
	session *Mapping // nil: no run
	key     uint32
	grew    bool
}

// settle tells the timers of the run's end and ends the run.
func (r *sessionRun) settle(t *sessionTimers) {
	if r.grew {
		t.extended(r.session.State, r.session.Window)
	}
	*r = sessionRun{}
}

// rowGaps reads a dynamic session gap column (ms) and the index of the
// first row whose gap is NULL, not positive or longer than
// rowtime.MaxWindowLength, so that ts + gap cannot overflow (-1 if none);
// nil gaps for a constant gap.
func (m *sessionMode) rowGaps(rec arrow.RecordBatch, n int) ([]int64, int) {
	if m.gap != 0 {
		return nil, -1
	}
	col := rec.Column(m.op.cfg.GapIndex).(*array.Int64) // the planner computes it as BIGINT ms
	m.gaps = grow(m.gaps, n)
	for i := 0; i < n; i++ {
		g := col.Value(i)
		if col.IsNull(i) || g <= 0 || g > rowtime.MaxWindowLength {
			return m.gaps, i
		}
		m.gaps[i] = g
	}
	return m.gaps, -1
}

// ErrBadGap is returned for a dynamic session gap that is NULL, not
// positive or too long.
var ErrBadGap = fmt.Errorf("bad session gap")

func (m *sessionMode) registerTimers(k uint32, w Window) {
	m.op.onElementTrigger(k, w)
	m.op.registerCleanupTimer(k, w)
}

// deleteTimers removes the fire and cleanup timers of a window that merged
// into another.
func (m *sessionMode) deleteTimers(k uint32, w Window) {
	op := m.op
	m.generic.Delete(Timer{Time: op.epoch(w.MaxTimestamp()), Key: k, Window: w})
	m.generic.Delete(Timer{Time: op.cleanupTime(w), Key: k, Window: w})
}

// onTimer fires a session and cleans it up at its cleanup time. Timers of
// sessions that merged away were deleted; a timer for a window no longer in
// the set is ignored.
func (m *sessionMode) onTimer(t Timer) {
	op := m.op
	s, ok := m.sets.StateWindow(t.Key, t.Window)
	if !ok {
		return
	}
	r := op.onTimerTrigger(t)
	if r.IsFire() {
		op.emitWindowResult(t.Key, t.Window, s)
	}
	if r.IsPurge() || t.Time == op.cleanupTime(t.Window) {
		m.sets.RetireWindow(t.Key, t.Window)
		op.slots.release(s)
		if m.timers != nil {
			m.timers.closed(s)
		}
	}
	if m.timers != nil {
		m.timers.fired(s, t)
	}
}
