package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// paneMode runs TUMBLE, HOP and CUMULATE windows by panes (slices): each
// row updates the accumulator of exactly one (key, pane), and a window's
// result merges its panes when it fires. TUMBLE is the case of one pane per
// window and emits the pane directly. A pane is freed when the last window
// containing it is cleaned up. Panes are kept per key (keyPanes) and timers
// per window (alignedTimers): all keys share the windows.
type paneMode struct {
	op     *WindowOperator
	a      SliceAssigner
	size   int64
	offset int64
	single bool // one pane per window: TUMBLE
	timers *alignedTimers

	panes    keyPanes
	lastPane []int64 // per key: the pane of its previous row ...
	lastSlot []int32 // ... and that pane's slot (-1: none)

	// the windows of recent panes and their cleanup times: rows arrive
	// nearly in order, alternating between a few panes near a boundary,
	// so this is computed about once per pane
	paneWins [4]paneWindows
	winBuf   []Window

	// the last window of recently cleaned panes: every key's cleanup of a
	// window walks the same panes
	lastWin [256]struct {
		pane int64
		w    Window
		ok   bool
	}
}

func newPaneMode(op *WindowOperator, a SliceAssigner) *paneMode {
	size, off := a.Pane()
	_, single := a.(*Tumble)
	timers := newAlignedTimers() // every key has the same windows
	op.timers = timers
	return &paneMode{op: op, a: a, size: size, offset: off, single: single, timers: timers}
}

type paneWindows struct {
	ok    bool
	pane  int64
	wins  []Window
	first int64 // cleanup time of the earliest-ending window
	last  int64 // cleanup time of the latest-ending window
}

// windows returns the windows of pane p and their cleanup times (cached).
func (m *paneMode) windows(p int64) *paneWindows {
	c := &m.paneWins[(uint64(p)*0x9E3779B97F4A7C15)>>62]
	if !c.ok || c.pane != p {
		c.wins = m.a.WindowsOfPane(p, c.wins[:0])
		c.pane, c.ok = p, true
		if n := len(c.wins); n > 0 {
			c.first = m.op.cleanupTime(c.wins[0])
			c.last = m.op.cleanupTime(c.wins[n-1])
		}
	}
	return c
}

func (m *paneMode) processRows(rec arrow.RecordBatch, times []int64, keyIDs []uint32, wms []int64, slots []int32) error {
	op := m.op
	if old := len(m.lastSlot); old < int(op.keys.n) {
		m.lastSlot, m.lastPane = extendTo(m.lastSlot, int(op.keys.n)), extendTo(m.lastPane, int(op.keys.n))
		for i := old; i < len(m.lastSlot); i++ {
			m.lastSlot[i] = -1
		}
	}
	m.panes.grow(int(op.keys.n))
	eventTime := !op.cfg.ProcTime
	e := op.cfg.Emit
	late := e.LateFire && op.cfg.AllowedLateness > 0
	perRowFire := (e.EarlyFire && e.EarlyFireDelay == 0) || (late && e.LateFireDelay == 0)
	periodic := (e.EarlyFire && e.EarlyFireDelay > 0) || (late && e.LateFireDelay > 0)

	// One ordered pass of integer work. Accumulators are updated a segment
	// at a time: a firing mid-batch first folds in the rows before it.
	segStart := 0
	// A row of the key and pane of the row before it, which went to a
	// slot with none of its windows late, goes to that slot unless a
	// timer fired between them: those windows' cleanup timers are
	// registered and yet to fire, so no watermark below the next timer
	// makes any of them late. A run of one key's rows in one pane skips
	// the pane's windows and the lateness checks.
	runs := !perRowFire && !periodic
	runSlot := int32(-1) // the row before's slot, if it can start a run
	// the windows of the last row's pane: windows caches them per pane,
	// but finding them there for every row of a pane that alternates
	// between keys was 5% of a TUMBLE over datagen; a firing may reuse
	// the cache, so it looks again after one
	var pw *paneWindows
	var pwPane int64
	// Rows arrive nearly in order, so a row in the pane of the row before
	// takes it without WindowStart's division (6% of a TUMBLE over
	// datagen). Only panes well inside the range of int64 are reused,
	// where WindowStart computes without overflow.
	const safe = 1 << 61
	reuse := m.size < safe && -safe < m.offset && m.offset < safe
	var p, prev int64
	paneOK := false
	for i := 0; i < len(times); i++ {
		if runs && pw != nil && pwPane == p && paneOK && len(pw.wins) > 0 && (!eventTime || pw.first > op.watermark) {
			if j := m.sameSlots(i, p, pw.first, eventTime, times, keyIDs, wms, slots); j > i {
				runSlot = slots[j-1]
				if i = j; i == len(times) {
					break
				}
			}
		}
		t := times[i]
		prev = p
		if !paneOK || t < p || uint64(t-p) >= uint64(m.size) {
			p = WindowStart(t, m.offset, m.size)
			paneOK = reuse && -safe < p && p < safe
		}
		fired := false
		if wms != nil {
			if wm := wms[i]; wm > op.watermark {
				if wm >= op.nextTimer {
					op.updateAccumulators(rec, slots, segStart, i)
					segStart = i
					op.advance(wm)
					fired = true
				} else {
					op.watermark = wm
				}
			}
		}
		if runSlot >= 0 && !fired && p == prev && keyIDs[i] == keyIDs[i-1] {
			slots[i] = runSlot
			continue
		}
		runSlot = -1
		if pw == nil || fired || p != pwPane {
			pw, pwPane = m.windows(p), p
		}
		wins := pw.wins
		if len(wins) == 0 {
			slots[i] = -1
			op.stats.NoWindowRows++
			continue
		}
		if eventTime && pw.first <= op.watermark {
			// some window of this pane is late: maybe all of them
			if pw.last <= op.watermark {
				slots[i] = -1
				op.stats.LateRowsDropped++
				op.stats.Lateness.Add(op.watermark - pw.last + 1)
				for _, w := range wins {
					op.late.add(i, w, op.watermark)
				}
				continue
			}
			for _, w := range wins {
				if op.isLate(w) {
					op.stats.LateForWindow++
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
		if runs && (!eventTime || pw.first > op.watermark) {
			runSlot = slots[i]
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

// sameSlots gives the rows from i on that fall in pane p, whose windows
// are not late, the slot their key already has in p, as long as they do
// and no timer is due and no window of p turns late; it returns the first
// row left to the general path of processRows. With the state of this
// loop in locals, a TUMBLE over datagen (a new key each row) went from
// 0.36 to 0.30 CPU-s, Nexmark q12 from 0.54 to 0.49.
func (m *paneMode) sameSlots(i int, p, first int64, eventTime bool, times []int64, keyIDs []uint32, wms []int64, slots []int32) int {
	op := m.op
	size := uint64(m.size)
	lastSlot, lastPane := m.lastSlot, m.lastPane
	wm, next := op.watermark, op.nextTimer
	for ; i < len(times); i++ {
		if uint64(times[i]-p) >= size { // p and the times are far from overflow
			break
		}
		if wms != nil {
			if w := wms[i]; w > wm {
				if w >= next || (eventTime && first <= w) {
					break
				}
				wm = w
			}
		}
		k := keyIDs[i]
		s := lastSlot[k]
		if s < 0 || lastPane[k] != p {
			break
		}
		slots[i] = s
	}
	op.watermark = wm
	return i
}

// slotFor finds or creates the slot of key k's pane p. A new pane tells
// the trigger about each of its windows that is not late (which registers
// the window's timer) and registers each window's cleanup timer.
func (m *paneMode) slotFor(k uint32, p int64, wins []Window) int32 {
	op := m.op
	s, ok := m.panes.find(k, p)
	if !ok {
		s = op.slots.alloc()
		at := m.panes.insert(k, p, s)
		for _, w := range wins {
			if op.isLate(w) {
				continue
			}
			if op.eventTimeTrigger && !op.cfg.ProcTime && m.panes.sharesWindow(k, at, w) {
				// Another pane of the key is in w, so a pane of the key
				// opened w under a lower watermark (panes outlive none of
				// their windows): the event-time trigger registered w's
				// timers then, and registering them again changes nothing.
				continue
			}
			// A window already past its end but kept by allowed lateness
			// fires through the emit strategy (fireOnElement), so the
			// trigger's FIRE on element needs no handling here.
			op.onElementTrigger(k, w)
			if op.eventTimeTrigger {
				if t := op.epoch(w.MaxTimestamp()); t > op.watermark && op.cleanupTime(w) == t {
					// without allowed lateness the cleanup timer is the
					// trigger's, just registered: a second registration
					// would find it there
					continue
				}
			}
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
	lo, hi := m.panes.span(k, w.Start, w.End)
	if lo == hi {
		return
	}
	if m.single {
		op.emitWindowResult(k, w, m.panes.of(k)[lo].slot)
		return
	}
	tmp := op.slots.alloc()
	for _, ps := range m.panes.of(k)[lo:hi] {
		op.mergeSlot(tmp, ps.slot)
	}
	op.emitWindowResult(k, w, tmp)
	op.slots.release(tmp)
}

// cleanWindow drops key k's window w: its emitted-result shadow, and every
// pane of w whose last window is w.
func (m *paneMode) cleanWindow(k uint32, w Window) {
	op := m.op
	op.forgetEmitted(k, w)
	op.disarm(k, w)
	lo, hi := m.panes.span(k, w.Start, w.End)
	l := m.panes.of(k)
	j := lo
	for _, ps := range l[lo:hi] {
		if m.lastWindow(ps.pane) != w {
			l[j] = ps // a later window still needs this pane
			j++
			continue
		}
		if m.lastSlot[k] == ps.slot {
			m.lastSlot[k] = -1
		}
		op.slots.release(ps.slot)
	}
	m.panes.setLen(k, len(append(l[:j], l[hi:]...)))
}

// lastWindow returns the last window containing pane p: the one whose
// cleanup frees it.
func (m *paneMode) lastWindow(p int64) Window {
	c := &m.lastWin[(uint64(p)*0x9E3779B97F4A7C15)>>56] // no division
	if !c.ok || c.pane != p {
		m.winBuf = m.a.WindowsOfPane(p, m.winBuf[:0])
		c.pane, c.w, c.ok = p, m.winBuf[len(m.winBuf)-1], true
	}
	return c.w
}
