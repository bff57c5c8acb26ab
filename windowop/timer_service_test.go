package windowop

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTimersAreUniquePerTimeKeyWindow(t *testing.T) {
	s := NewTimerService()
	w := Window{0, 10}
	s.Register(Timer{Time: 9, Key: 1, Window: w})
	s.Register(Timer{Time: 9, Key: 1, Window: w})
	require.Equal(t, 1, s.Len())
	s.Register(Timer{Time: 9, Key: 2, Window: w})
	s.Register(Timer{Time: 19, Key: 1, Window: w})
	s.Register(Timer{Time: 9, Key: 1, Window: Window{-5, 10}})
	require.Equal(t, 4, s.Len())
}

func TestTimersFireInTimeKeyWindowOrder(t *testing.T) {
	s := NewTimerService()
	in := []Timer{
		{Time: 20, Key: 0, Window: Window{11, 21}},
		{Time: 9, Key: 3, Window: Window{0, 10}},
		{Time: 9, Key: 1, Window: Window{5, 10}},
		{Time: 9, Key: 1, Window: Window{0, 10}},
	}
	for _, tm := range in {
		s.Register(tm)
	}
	next, ok := s.NextTime()
	require.True(t, ok)
	require.Equal(t, int64(9), next)
	var got []Timer
	for {
		tm, ok := s.PopDue(15)
		if !ok {
			break
		}
		got = append(got, tm)
	}
	require.Equal(t, []Timer{in[3], in[2], in[1]}, got)
	require.Equal(t, 1, s.Len())
	s.Delete(in[0])
	s.Delete(in[0])
	require.Equal(t, 0, s.Len())
	_, ok = s.NextTime()
	require.False(t, ok)
	// a deleted timer may be registered again
	s.Register(in[0])
	require.Equal(t, 1, s.Len())
}

func TestEventTimeTrigger(t *testing.T) {
	ctx := &fakeTriggerContext{wm: 5}
	w := Window{0, 10}
	require.Equal(t, Continue, EventTimeTrigger{}.OnElement(w, ctx))
	require.Equal(t, []int64{9}, ctx.timers)
	require.Equal(t, Fire, EventTimeTrigger{}.OnEventTime(9, w, ctx))
	require.Equal(t, Continue, EventTimeTrigger{}.OnEventTime(14, w, ctx))
	ctx.wm = 9
	require.Equal(t, Fire, EventTimeTrigger{}.OnElement(w, ctx), "watermark already past: fire at once")
}

type fakeTriggerContext struct {
	wm     int64
	timers []int64
}

func (c *fakeTriggerContext) CurrentWatermark() int64        { return c.wm }
func (c *fakeTriggerContext) RegisterEventTimeTimer(t int64) { c.timers = append(c.timers, t) }
func (c *fakeTriggerContext) ToEpoch(local int64) int64      { return local }

// BenchmarkTimerService registers 64k timers at random times over 1000
// keys and pops them all: the heap's pushes and pops at full size.
func BenchmarkTimerService(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	ts := make([]Timer, 1<<16)
	for i := range ts {
		t := rnd.Int64N(1 << 20)
		ts[i] = Timer{Time: t, Key: uint32(rnd.IntN(1000)), Window: Window{Start: t - 1000, End: t + 1}}
	}
	b.ResetTimer()
	for range b.N {
		s := NewTimerService()
		for _, t := range ts {
			s.Register(t)
		}
		for {
			if _, ok := s.PopDue(math.MaxInt64); !ok {
				break
			}
		}
	}
}
