package windowop

import "sort"

// Timer is a callback request at Time for one key's window. Timers are
// unique per (Time, Key, Window): registering the same timer twice keeps one.
type Timer struct {
	Time   int64
	Key    uint32
	Window Window
}

// before orders timers deterministically: by time, then by key (keys are
// numbered in order of their first row), then by window.
func (a *Timer) before(b *Timer) bool {
	return timerBefore(a.Time, a.Key, a.Window, b.Time, b.Key, b.Window)
}

// timerBefore is the order of every timer queue: (time, key, window).
func timerBefore(at int64, ak uint32, aw Window, bt int64, bk uint32, bw Window) bool {
	if at != bt {
		return at < bt
	}
	if ak != bk {
		return ak < bk
	}
	if aw.Start != bw.Start {
		return aw.Start < bw.Start
	}
	return aw.End < bw.End
}

// timerQueue is where the operator's timers of one kind wait: the generic
// TimerService, alignedTimers (windows every key shares: TUMBLE, HOP,
// CUMULATE) or sessionTimers (SESSION with the event-time trigger). Every
// implementation pops timers in (time, key, window) order.
type timerQueue interface {
	Register(t Timer)
	// PopDue removes and returns the earliest timer with Time <= watermark.
	PopDue(watermark int64) (Timer, bool)
	// NextTime returns a time no later than the earliest pending timer's
	// (the operator calls PopDue once a watermark reaches it), ok=false if
	// no timer is pending.
	NextTime() (int64, bool)
	// Len returns the number of pending timers.
	Len() int
}

// TimerService keeps one kind of timers (event time or processing time) of
// one operator: a min-heap in (time, key, window) order plus a set that
// makes registration idempotent. Deletion is lazy: a deleted timer leaves
// the set at once and its heap entry is skipped when it reaches the top. It
// never reads a clock; time advances only through what the operator passes
// to PopDue. It serves timers with no structure to exploit: periodic emit
// timers and triggers other than the event-time trigger on sessions.
type TimerService struct {
	queue []Timer // binary min-heap (timer_heap.go)
	set   map[Timer]struct{}
}

// NewTimerService returns an empty timer service.
func NewTimerService() *TimerService {
	return &TimerService{set: make(map[Timer]struct{})}
}

// Register adds a timer unless an identical one is pending.
func (s *TimerService) Register(t Timer) {
	if _, ok := s.set[t]; ok {
		return
	}
	s.set[t] = struct{}{}
	s.queue = heapPush(s.queue, t)
}

// Delete removes a pending timer; deleting an absent timer is a no-op.
func (s *TimerService) Delete(t Timer) { delete(s.set, t) }

// Len returns the number of pending timers.
func (s *TimerService) Len() int { return len(s.set) }

// NextTime returns the earliest pending timer's time, or ok=false if none.
func (s *TimerService) NextTime() (t int64, ok bool) {
	s.dropStale()
	if len(s.queue) == 0 {
		return 0, false
	}
	return s.queue[0].Time, true
}

// PopDue removes and returns the earliest timer with Time <= watermark.
func (s *TimerService) PopDue(watermark int64) (Timer, bool) {
	s.dropStale()
	if len(s.queue) == 0 || s.queue[0].Time > watermark {
		return Timer{}, false
	}
	t := s.pop()
	delete(s.set, t)
	return t, true
}

// dropStale pops deleted timers off the top of the heap.
func (s *TimerService) dropStale() {
	for len(s.queue) > 0 {
		if _, ok := s.set[s.queue[0]]; ok {
			return
		}
		s.pop()
	}
}

func (s *TimerService) pop() Timer {
	var t Timer
	s.queue, t = heapPop(s.queue)
	return t
}

var (
	_ timerQueue = (*TimerService)(nil)
	_ timerQueue = (*alignedTimers)(nil)
	_ timerQueue = (*sessionTimers)(nil)
)

// each calls fn with every pending timer, in timer order (a checkpoint
// lists them; Register in any order restores the queue).
func (s *TimerService) each(fn func(Timer)) {
	ts := make([]Timer, 0, len(s.set))
	for t := range s.set {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].before(&ts[j]) })
	for _, t := range ts {
		fn(t)
	}
}
