package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// paneMode runs TUMBLE, HOP and CUMULATE windows by panes (slices): each
// row updates the accumulator of exactly one (key, pane), and a window's
// result merges its panes when it fires. TUMBLE is the case of one pane per
// window and emits the pane directly. A pane is freed when the last window
// containing it is cleaned up.
type paneMode struct {
	op     *WindowOperator
	a      SliceAssigner
	size   int64
	offset int64
	single bool // one pane per window: TUMBLE

	panes    map[paneKey]int32
	lastPane []int64 // per key: the pane of its previous row ...
	lastSlot []int32 // ... and that pane's slot (-1: none)

	paneOf []int64 // per-row scratch

	// the windows of the pane of the previous row, and their cleanup
	// times: rows arrive mostly in order, so this is computed once per pane
	cached      bool
	cachedPane  int64
	cachedWins  []Window
	cachedFirst int64 // cleanup time of the earliest-ending window
	cachedLast  int64 // cleanup time of the latest-ending window
	winBuf      []Window
}

type paneKey struct {
	key  uint32
	pane int64
}

func newPaneMode(op *WindowOperator, a SliceAssigner) *paneMode {
	size, off := a.Pane()
	_, single := a.(*Tumble)
	return &paneMode{op: op, a: a, size: size, offset: off, single: single, panes: make(map[paneKey]int32)}
}

// windows returns the windows of pane p (cached for consecutive rows).
func (m *paneMode) windows(p int64) []Window {
	if !m.cached || m.cachedPane != p {
		m.cachedWins = m.a.WindowsOfPane(p, m.cachedWins[:0])
		m.cachedPane, m.cached = p, true
		if n := len(m.cachedWins); n > 0 {
			m.cachedFirst = m.op.cleanupTime(m.cachedWins[0])
			m.cachedLast = m.op.cleanupTime(m.cachedWins[n-1])
		}
	}
	return m.cachedWins
}

func (m *paneMode) processRows(rec arrow.RecordBatch, times []int64, keyIDs []uint32, wms []int64, slots []int32) error {
	op := m.op
	m.paneOf = grow(m.paneOf, len(times))
	for i, t := range times {
		m.paneOf[i] = WindowStart(t, m.offset, m.size)
	}
	for len(m.lastSlot) < int(op.keys.n) {
		m.lastSlot = append(m.lastSlot, -1)
		m.lastPane = append(m.lastPane, 0)
	}
	eventTime := !op.cfg.ProcTime
	e := op.cfg.Emit
	late := e.LateFire && op.cfg.AllowedLateness > 0
	perRowFire := (e.EarlyFire && e.EarlyFireDelay == 0) || (late && e.LateFireDelay == 0)
	periodic := (e.EarlyFire && e.EarlyFireDelay > 0) || (late && e.LateFireDelay > 0)

	// One ordered pass of integer work. Accumulators are updated a segment
	// at a time: a firing mid-batch first folds in the rows before it.
	segStart := 0
	for i, p := range m.paneOf {
		if wms != nil {
			if wm := wms[i]; wm > op.watermark {
				if wm >= op.nextTimer {
					op.updateAccumulators(rec, slots, segStart, i)
					segStart = i
					op.advance(wm)
				} else {
					op.watermark = wm
				}
			}
		}
		wins := m.windows(p)
		if len(wins) == 0 {
			slots[i] = -1
			op.stats.NoWindow++
			continue
		}
		if eventTime && m.cachedFirst <= op.watermark {
			// some window of this pane is late: maybe all of them
			if m.cachedLast <= op.watermark {
				slots[i] = -1
				op.stats.LateDropped++
				for _, w := range wins {
					op.late.add(i, w, op.watermark)
				}
				continue
			}
			for _, w := range wins {
				if op.isLate(w) {
					op.stats.LateMissed++
					op.late.add(i, w, op.watermark)
				}
			}
		}
		k := keyIDs[i]
		if m.lastSlot[k] >= 0 && m.lastPane[k] == p {
			slots[i] = m.lastSlot[k]
		} else {
			slots[i] = m.slotFor(k, p, wins)
		}
		if perRowFire {
			op.updateAccumulators(rec, slots, segStart, i+1)
			segStart = i + 1
			m.fireOnElement(k, wins)
		}
		if periodic {
			m.armOnElement(k, wins)
		}
	}
	op.updateAccumulators(rec, slots, segStart, len(times))
	return nil
}

// slotFor finds or creates the slot of key k's pane p. A new pane tells
// the trigger about each of its windows that is not late (which registers
// the window's timer) and registers each window's cleanup timer.
func (m *paneMode) slotFor(k uint32, p int64, wins []Window) int32 {
	op := m.op
	pk := paneKey{key: k, pane: p}
	s, ok := m.panes[pk]
	if !ok {
		s = op.slots.alloc()
		m.panes[pk] = s
		for _, w := range wins {
			if op.isLate(w) {
				continue
			}
			// A window already past its end but kept by allowed lateness
			// fires through the emit strategy (fireOnElement), so the
			// trigger's FIRE on element needs no handling here.
			op.onElementTrigger(k, w)
			op.registerCleanupTimer(k, w)
		}
	}
	m.lastPane[k], m.lastSlot[k] = p, s
	return s
}

// fireOnElement is the emit strategy with delay 0: early firing emits every
// window of the row that has not reached its end yet; late firing emits
// every window that is past its end but within the allowed lateness.
func (m *paneMode) fireOnElement(k uint32, wins []Window) {
	op := m.op
	e := op.cfg.Emit
	for _, w := range wins {
		if op.isLate(w) {
			continue
		}
		ended := op.epoch(w.MaxTimestamp()) <= op.watermark
		if (ended && e.LateFire && e.LateFireDelay == 0) || (!ended && e.EarlyFire && e.EarlyFireDelay == 0) {
			m.fireWindow(k, w)
		}
	}
}

// armOnElement is the emit strategy with a positive delay: the row's
// windows fire that long after it in processing time (Flink's
// AfterFirstElementPeriodic), early before their end, late after it.
func (m *paneMode) armOnElement(k uint32, wins []Window) {
	op := m.op
	e := op.cfg.Emit
	for _, w := range wins {
		if op.isLate(w) {
			continue
		}
		ended := op.epoch(w.MaxTimestamp()) <= op.watermark
		switch {
		case ended && e.LateFire && e.LateFireDelay > 0:
			op.armPeriodic(k, w, e.LateFireDelay)
		case !ended && e.EarlyFire && e.EarlyFireDelay > 0:
			op.armPeriodic(k, w, e.EarlyFireDelay)
		}
	}
}

// onTimer is Flink's onEventTime for one key's window: fire if the trigger
// says so, then clean the window up if this is its cleanup time.
func (m *paneMode) onTimer(t Timer) {
	op := m.op
	r := op.onTimerTrigger(t)
	if r.IsFire() {
		m.fireWindow(t.Key, t.Window)
	}
	if r.IsPurge() || t.Time == op.cleanupTime(t.Window) {
		m.cleanWindow(t.Key, t.Window)
	}
}

// fireWindow emits key k's window w: the pane itself for TUMBLE, the merge
// of its panes otherwise.
func (m *paneMode) fireWindow(k uint32, w Window) {
	op := m.op
	if m.single {
		if s, ok := m.panes[paneKey{key: k, pane: w.Start}]; ok {
			op.emitWindowResult(k, w, s)
		}
		return
	}
	tmp := op.slots.alloc()
	found := false
	for p := w.Start; p < w.End; p += m.size {
		if s, ok := m.panes[paneKey{key: k, pane: p}]; ok {
			op.mergeSlot(tmp, s)
			found = true
		}
	}
	if found {
		op.emitWindowResult(k, w, tmp)
	}
	op.slots.release(tmp)
}

// cleanWindow drops key k's window w: its emitted-result shadow, and every
// pane of w whose last window is w.
func (m *paneMode) cleanWindow(k uint32, w Window) {
	op := m.op
	op.forgetEmitted(k, w)
	op.disarm(k, w)
	for p := w.Start; p < w.End; p += m.size {
		pk := paneKey{key: k, pane: p}
		s, ok := m.panes[pk]
		if !ok {
			continue
		}
		m.winBuf = m.a.WindowsOfPane(p, m.winBuf[:0])
		if m.winBuf[len(m.winBuf)-1] != w {
			continue // a later window still needs this pane
		}
		delete(m.panes, pk)
		if m.lastSlot[k] == s {
			m.lastSlot[k] = -1
		}
		op.slots.release(s)
	}
}
