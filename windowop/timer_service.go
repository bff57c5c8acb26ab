package windowop

import "container/heap"

// Timer is a callback request at Time for one key's window. Timers are
// unique per (Time, Key, Window): registering the same timer twice keeps one.
type Timer struct {
	Time   int64
	Key    uint32
	Window Window
}

// less orders timers deterministically: by time, then by key (keys are
// numbered in order of their first row), then by window.
func (a Timer) less(b Timer) bool {
	if a.Time != b.Time {
		return a.Time < b.Time
	}
	if a.Key != b.Key {
		return a.Key < b.Key
	}
	if a.Window.Start != b.Window.Start {
		return a.Window.Start < b.Window.Start
	}
	return a.Window.End < b.Window.End
}

// TimerService keeps one kind of timers (event time or processing time) of
// one operator: a min-heap in (time, key, window) order plus a set that
// makes registration idempotent. Deletion is lazy: a deleted timer leaves
// the set at once and its heap entry is skipped when it reaches the top, so
// a session that grows row by row costs a heap push, not a heap search. It
// never reads a clock; time advances only through what the operator passes
// to PopDue.
type TimerService struct {
	queue timerHeap
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
	heap.Push(&s.queue, t)
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
	t := heap.Pop(&s.queue).(Timer)
	delete(s.set, t)
	return t, true
}

// dropStale pops deleted timers off the top of the heap.
func (s *TimerService) dropStale() {
	for len(s.queue) > 0 {
		if _, ok := s.set[s.queue[0]]; ok {
			return
		}
		heap.Pop(&s.queue)
	}
}

type timerHeap []Timer

func (h timerHeap) Len() int           { return len(h) }
func (h timerHeap) Less(i, j int) bool { return h[i].less(h[j]) }
func (h timerHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)        { *h = append(*h, x.(Timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}
