package windowop

import "math"

// sessionTimers holds the timers of SESSION windows under the event-time
// trigger without a call per row. Each session has at most two timers, at
// its fire time (epoch maxTimestamp, registered only if the watermark had
// not reached it when the session last changed, as EventTimeTrigger does)
// and its cleanup time; nearly every row moves them by extending its key's
// session. Instead of deleting and registering per row, the session keeps
// one entry in a queue (sessionQueue), its armed timer, which is never
// later than its earliest real timer:
//
//   - a change that moves the earliest timer later leaves the entry as it
//     is; a change that moves it earlier (a merge that lowers the start at
//     the same time) pushes a new entry, and the old one becomes dead;
//   - when the entry reaches the top it is checked against the session:
//     dead entries are dropped, stale ones re-pushed at the session's
//     current earliest timer, due ones returned.
//
// So queue work happens about once per session and gap, not per row, and
// timers still pop in (time, key, window) order: an entry is never later
// than the timer it stands for, and re-pushing it at that timer puts it in
// its place. Sessions are identified by their state slot and a serial that
// changes whenever the slot starts a new session.
type sessionTimers struct {
	op    *WindowOperator
	queue sessionQueue
	info  []sessionInfo // by state slot
	sets  *MergingWindowSet
	count int  // sessions ever opened: the serial of the next one
	utc   bool // windows are in UTC (no Config.Local): extended's shortcut holds
	// extendsFree: in UTC and without allowed lateness, a session whose
	// end grows needs nothing of its timers (see extended).
	extendsFree bool
}

// sessionEntry is a session's entry in the queue: the timer it is armed at
// and the session it stands for.
type sessionEntry struct {
	Timer  // first: the queue orders entries by it (timerOf)
	serial uint32
	slot   int32
}

// sessionInfo is the timer state of the session held in one slot. Its
// window is the set's (window): a row that extends a session writes its
// end there alone, one line of memory instead of two (Nexmark q11: 4%
// less CPU).
type sessionInfo struct {
	serial uint32 // 0: the slot holds no session
	key    uint32
	fire   bool // the fire timer is pending
	armed  bool // the entry (armedT, armedW) stands for the timers
	armedT int64
	armedW Window
}

// window is the window of the session in slot s, whose info is in.
func (st *sessionTimers) window(s int32, in *sessionInfo) Window {
	l := st.sets.lists.list(in.key)
	for i := len(l) - 1; i >= 0; i-- { // the key's last session, nearly always
		if l[i].State == s {
			return l[i].Window
		}
	}
	panic("windowop: a session's timers without its window")
}

// opened starts the timers of a new session of key k in slot s.
func (st *sessionTimers) opened(k uint32, s int32, w Window) {
	st.growInfo(s)
	st.count++
	st.info[s] = sessionInfo{serial: uint32(st.count), key: k}
	st.changed(s, w)
}

// growInfo makes room for slot s. The table doubles (extendTo): append's
// growth of a quarter for large slices copied it five times over, 4% of a
// SESSION per bidder (Nexmark q11).
func (st *sessionTimers) growInfo(s int32) { st.info = extendTo(st.info, int(s)+1) }

// closed forgets the session in slot s (merged away or cleaned up).
func (st *sessionTimers) closed(s int32) { st.info[s] = sessionInfo{} }

// changed records that the session in slot s is now window w, which is
// what registering its timers anew does: the fire timer is pending if the
// watermark has not reached it.
func (st *sessionTimers) changed(s int32, w Window) {
	in := &st.info[s]
	in.fire = st.op.epoch(w.MaxTimestamp()) > st.op.watermark
	t, ok := st.earliest(in, w)
	if !ok {
		in.armed = false
		return
	}
	if in.armed && !(t < in.armedT || (t == in.armedT && windowLess(w, in.armedW))) {
		return // the armed entry is still no later: re-armed when popped
	}
	st.arm(s, in, t, w)
}

// extended is changed for the session in slot s when only its end grew,
// to w. Nearly every row of a session per bidder (Nexmark q11) extends
// its session.
//
// Without allowed lateness, in UTC (extendsFree), it has nothing to do at
// all, and inlined it costs the row one test. A live session's fire and
// cleanup timers are then one, at its end, and pending: the watermark has
// not reached it, or the session would have fired and gone before this
// row. So the session is armed, unless its timer is past math.MaxInt64 and
// stays so, and changed finds the armed entry earlier than the end that
// grew, whatever window it was armed for.
func (st *sessionTimers) extended(s int32, w Window) {
	if !st.extendsFree {
		st.extendedLater(s, w)
	}
}

// extendedLater is extended with allowed lateness or in a time zone. With
// its fire timer pending and windows in UTC, both the session's timers
// only move later: an armed entry of the same start stays no later than
// them and is kept, as changed would keep it, without working its timers
// out again (Nexmark q11: 0.70 to 0.68 CPU-s).
func (st *sessionTimers) extendedLater(s int32, w Window) {
	in := &st.info[s]
	if in.armed && in.fire && in.armedW.Start == w.Start && st.utc {
		return
	}
	st.changed(s, w)
}

// earliest is the time of the earliest pending timer of the session whose
// info is in, in window w.
func (st *sessionTimers) earliest(in *sessionInfo, w Window) (int64, bool) {
	t := st.op.cleanupTime(w)
	if in.fire {
		t = min(t, st.op.epoch(w.MaxTimestamp()))
	}
	return t, t != math.MaxInt64
}

func (st *sessionTimers) arm(s int32, in *sessionInfo, t int64, w Window) {
	in.armed, in.armedT, in.armedW = true, t, w
	st.queue.push(sessionEntry{Timer: Timer{Time: t, Key: in.key, Window: w}, serial: in.serial, slot: s})
	if t < st.op.nextTimer {
		st.op.nextTimer = t
	}
}

// fired updates the session of a timer the operator just handled: the fire
// timer is gone, and unless the session was cleaned up its next timer is
// armed.
func (st *sessionTimers) fired(s int32, t Timer) {
	in := &st.info[s]
	if in.serial == 0 {
		return
	}
	// The session's window is the timer's: PopDue returns a timer only
	// for the window the session is, and a firing does not change it.
	if t.Time == st.op.epoch(t.Window.MaxTimestamp()) {
		in.fire = false
	}
	if next, ok := st.earliest(in, t.Window); ok && next > t.Time {
		st.arm(s, in, next, t.Window)
	}
}

// Register is not used: sessions under the event-time trigger never call
// the trigger context (other triggers use a TimerService).
func (st *sessionTimers) Register(Timer) { panic("windowop: sessionTimers.Register") }

// valid reports whether entry e is the armed entry of a live session.
func (st *sessionTimers) valid(e *sessionEntry) bool {
	in := &st.info[e.slot]
	return in.serial == e.serial && in.armed && in.armedT == e.Time && in.armedW == e.Window
}

// PopDue returns the earliest due timer, re-arming stale entries on the way.
func (st *sessionTimers) PopDue(watermark int64) (Timer, bool) {
	for st.queue.len() > 0 && st.queue.top().Time <= watermark {
		e := st.pop()
		if !st.valid(&e) {
			continue
		}
		in := &st.info[e.slot]
		w := st.window(e.slot, in)
		t, ok := st.earliest(in, w)
		if !ok {
			in.armed = false
			continue
		}
		if t == e.Time && w == e.Window {
			in.armed = false
			return Timer{Time: t, Key: e.Key, Window: e.Window}, true
		}
		st.arm(e.slot, in, t, w)
	}
	return Timer{}, false
}

// settle re-arms the stale entries due by watermark and returns the time
// of the earliest entry left (math.MaxInt64 if none): when that is still
// due, a timer really is.
func (st *sessionTimers) settle(watermark int64) int64 {
	for st.queue.len() > 0 {
		e := st.queue.top()
		if e.Time > watermark {
			return e.Time
		}
		if !st.valid(e) {
			st.pop()
			continue
		}
		in := &st.info[e.slot]
		w := st.window(e.slot, in)
		t, ok := st.earliest(in, w)
		if !ok {
			in.armed = false
			st.pop()
			continue
		}
		if t == e.Time && w == e.Window {
			return t
		}
		re := st.pop()
		re.Time, re.Window = t, w
		in.armedT, in.armedW = t, w
		st.queue.push(re)
	}
	return math.MaxInt64
}

// NextTime returns the time of the earliest live entry: no later than the
// earliest timer.
func (st *sessionTimers) NextTime() (int64, bool) {
	for st.queue.len() > 0 {
		if e := st.queue.top(); st.valid(e) {
			return e.Time, true
		}
		st.pop()
	}
	return 0, false
}

// Len counts the pending timers: per session its fire timer and its
// cleanup timer, one if they coincide.
func (st *sessionTimers) Len() int {
	n := 0
	for k := range uint32(st.sets.Keys()) {
		for _, m := range st.sets.lists.list(k) {
			in := &st.info[m.State]
			c := st.op.cleanupTime(m.Window)
			if in.fire {
				n++
				if c == st.op.epoch(m.Window.MaxTimestamp()) {
					continue
				}
			}
			if c != math.MaxInt64 {
				n++
			}
		}
	}
	return n
}

func (st *sessionTimers) pop() sessionEntry {
	return st.queue.pop()
}

// restore re-creates the timers of a session read from a checkpoint: key
// k's window w in slot s, its fire timer pending or not.
func (st *sessionTimers) restore(k uint32, s int32, w Window, fire bool) {
	st.growInfo(s)
	st.count++
	in := &st.info[s]
	*in = sessionInfo{serial: uint32(st.count), key: k, fire: fire}
	if t, ok := st.earliest(in, w); ok {
		st.arm(s, in, t, w)
	}
}
