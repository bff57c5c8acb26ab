package windowop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// refConfig describes what the naive reference computes.
type refConfig struct {
	kind     string // tumble, hop, cumulate, session
	size     int64  // tumble/hop/cumulate size
	slide    int64  // hop slide, cumulate step
	offset   int64
	gap      int64 // session
	lateness int64
	early    bool
	lateFire bool
	delay    int64 // watermark delay
}

// windowsFor lists a row's windows by brute force, straight from the rules of docs/semantics.md, "Windows".
func (c refConfig) windowsFor(ts int64) []Window {
	floorMod := func(a, b int64) int64 { return ((a % b) + b) % b }
	var out []Window
	switch c.kind {
	case "tumble":
		s := ts - floorMod(ts-c.offset, c.size)
		out = append(out, Window{s, s + c.size})
	case "hop":
		last := ts - floorMod(ts-c.offset, c.slide)
		for s := last; s > ts-c.size; s -= c.slide {
			out = append(out, Window{s, s + c.size})
		}
	case "cumulate":
		s := ts - floorMod(ts-c.offset, c.size)
		for e := s + c.slide; e <= s+c.size; e += c.slide {
			if e > ts {
				out = append(out, Window{s, e})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].End < out[j].End })
	return out
}

type refState struct {
	n, sum    int64
	has       bool
	fireTimer bool
	emitted   *[3]int64 // n, sum, has(0/1) last emitted (update streams)
}

// reference is a deliberately naive row-at-a-time model of the window
// operator: maps of (key, window) states, timers as a scan over every
// state, everything recomputed from docs/semantics.md's rules.
func reference(c refConfig, rows []click) (out []string, late int64) {
	keyOrder := map[string]int{}
	type wk struct {
		key string
		w   Window
	}
	states := map[wk]*refState{}
	updates := c.early || (c.lateFire && c.lateness > 0)
	cleanup := func(w Window) int64 {
		t := w.End - 1 + c.lateness
		if c.lateness > 0 && t < w.End-1 {
			return math.MaxInt64
		}
		return t
	}
	emit := func(k wk, s *refState) {
		cur := [3]int64{s.n, s.sum, 0}
		if s.has {
			cur[2] = 1
		}
		row := func(op string, v [3]int64) string {
			sum := "NULL"
			if v[2] == 1 {
				sum = strconv.FormatInt(v[1], 10)
			}
			prefix := ""
			if updates {
				prefix = op + " "
			}
			return fmt.Sprintf("row %s%s %d %d %d %d %s", prefix, k.key, k.w.Start, k.w.End, k.w.End-1, v[0], sum)
		}
		switch {
		case !updates:
			out = append(out, row("+I", cur))
		case s.emitted == nil:
			out = append(out, row("+I", cur))
			s.emitted = &cur
		case *s.emitted != cur:
			out = append(out, row("-U", *s.emitted), row("+U", cur))
			s.emitted = &cur
		}
	}
	// advance fires and cleans up in (time, key, window) order.
	advance := func(wm int64) {
		type ev struct {
			t     int64
			k     wk
			clean bool
		}
		var evs []ev
		for k, s := range states {
			if s.fireTimer && k.w.End-1 <= wm {
				evs = append(evs, ev{t: k.w.End - 1, k: k})
			}
			if ct := cleanup(k.w); ct != math.MaxInt64 && ct <= wm {
				evs = append(evs, ev{t: ct, k: k, clean: true})
			}
		}
		sort.SliceStable(evs, func(i, j int) bool {
			a, b := evs[i], evs[j]
			if a.t != b.t {
				return a.t < b.t
			}
			if keyOrder[a.k.key] != keyOrder[b.k.key] {
				return keyOrder[a.k.key] < keyOrder[b.k.key]
			}
			if a.k.w != b.k.w {
				return a.k.w.Start < b.k.w.Start || (a.k.w.Start == b.k.w.Start && a.k.w.End < b.k.w.End)
			}
			return !a.clean && b.clean
		})
		for _, e := range evs {
			s := states[e.k]
			if s == nil {
				continue
			}
			if !e.clean {
				s.fireTimer = false
				emit(e.k, s)
				continue
			}
			delete(states, e.k)
		}
	}
	wm := int64(math.MinInt64)
	for _, r := range rows {
		advance(wm)
		if _, ok := keyOrder[r.usr]; !ok {
			keyOrder[r.usr] = len(keyOrder)
		}
		wins := c.windowsFor(r.ts)
		var live []Window
		for _, w := range wins {
			if cleanup(w) > wm {
				live = append(live, w)
			}
		}
		if len(wins) > 0 && len(live) == 0 {
			late++
		}
		for _, w := range live {
			k := wk{r.usr, w}
			s := states[k]
			if s == nil {
				s = &refState{fireTimer: w.End-1 > wm}
				states[k] = s
			}
			s.n++
			if !r.null {
				s.sum += int64(r.amount)
				s.has = true
			}
		}
		for _, w := range live {
			ended := w.End-1 <= wm
			if (ended && c.lateFire && c.lateness > 0) || (!ended && c.early) {
				emit(wk{r.usr, w}, states[wk{r.usr, w}])
			}
		}
		if r.ts-c.delay > wm {
			wm = r.ts - c.delay
		}
	}
	advance(math.MaxInt64)
	return out, late
}

// referenceSessions is the naive model of SESSION windows: per key a list
// of sessions; a row's [ts, ts+gap) merges every session it touches.
func referenceSessions(c refConfig, rows []click) (out []string, late int64) {
	type sess struct {
		w      Window
		n, sum int64
		has    bool
	}
	keyOrder := map[string]int{}
	var keys []string
	sessions := map[string][]*sess{}
	advance := func(wm int64) {
		type ev struct {
			key string
			s   *sess
		}
		var evs []ev
		for _, k := range keys {
			for _, s := range sessions[k] {
				if s.w.End-1 <= wm {
					evs = append(evs, ev{k, s})
				}
			}
		}
		sort.SliceStable(evs, func(i, j int) bool {
			a, b := evs[i], evs[j]
			if a.s.w.End != b.s.w.End {
				return a.s.w.End < b.s.w.End
			}
			if keyOrder[a.key] != keyOrder[b.key] {
				return keyOrder[a.key] < keyOrder[b.key]
			}
			return a.s.w.Start < b.s.w.Start
		})
		for _, e := range evs {
			sum := "NULL"
			if e.s.has {
				sum = strconv.FormatInt(e.s.sum, 10)
			}
			out = append(out, fmt.Sprintf("row %s %d %d %d %d %s", e.key, e.s.w.Start, e.s.w.End, e.s.w.End-1, e.s.n, sum))
			var keep []*sess
			for _, s := range sessions[e.key] {
				if s != e.s {
					keep = append(keep, s)
				}
			}
			sessions[e.key] = keep
		}
	}
	wm := int64(math.MinInt64)
	for _, r := range rows {
		advance(wm)
		if _, ok := keyOrder[r.usr]; !ok {
			keyOrder[r.usr] = len(keyOrder)
			keys = append(keys, r.usr)
		}
		w := Window{r.ts, r.ts + c.gap}
		merged := &sess{w: w}
		var keep []*sess
		touched := false
		for _, s := range sessions[r.usr] {
			if s.w.Start <= w.End && s.w.End >= w.Start {
				touched = true
				merged.w.Start = min(merged.w.Start, s.w.Start)
				merged.w.End = max(merged.w.End, s.w.End)
				merged.n += s.n
				merged.sum += s.sum
				merged.has = merged.has || s.has
			} else {
				keep = append(keep, s)
			}
		}
		if !touched && w.End-1 <= wm {
			late++
		} else {
			merged.n++
			if !r.null {
				merged.sum += int64(r.amount)
				merged.has = true
			}
			sessions[r.usr] = append(keep, merged)
		}
		if r.ts-c.delay > wm {
			wm = r.ts - c.delay
		}
	}
	advance(math.MaxInt64)
	return out, late
}

func (c refConfig) operatorConfig(t *testing.T) Config {
	var a Assigner
	var err error
	switch c.kind {
	case "tumble":
		a, err = NewTumble(c.size, c.offset)
	case "hop":
		a, err = NewHop(c.slide, c.size, c.offset)
	case "cumulate":
		a, err = NewCumulate(c.slide, c.size, c.offset)
	case "session":
		a, err = NewSession(c.gap)
	}
	require.NoError(t, err)
	cfg := tumbleConfig(t, 1)
	cfg.Assigner = a
	cfg.AllowedLateness = c.lateness
	cfg.Emit = EmitStrategy{EarlyFire: c.early, LateFire: c.lateFire}
	return cfg
}

func randomClicks(rnd *rand.Rand, n int, disorder int64) []click {
	var rows []click
	ts := int64(-200)
	for i := 0; i < n; i++ {
		ts += int64(rnd.IntN(12))
		rows = append(rows, click{
			ts:     ts - rnd.Int64N(disorder+1),
			usr:    "u" + strconv.Itoa(rnd.IntN(4)),
			amount: float64(rnd.IntN(10)),
			null:   rnd.IntN(15) == 0,
		})
	}
	return rows
}

// TestDifferentialAgainstNaiveReference runs random streams through the
// operator and the naive reference for every window kind, lateness and emit
// strategy, at batch sizes 1, 7 and 4096, and requires identical output.
func TestDifferentialAgainstNaiveReference(t *testing.T) {
	configs := []refConfig{
		{kind: "tumble", size: 30, delay: 20},
		{kind: "tumble", size: 25, offset: 7, delay: 40},
		{kind: "hop", slide: 10, size: 30, delay: 20},
		{kind: "hop", slide: 4, size: 10, delay: 15}, // size not a multiple of slide
		{kind: "hop", slide: 20, size: 8, delay: 10}, // gaps between windows
		{kind: "hop", slide: 10, size: 40, offset: 3, delay: 30},
		{kind: "cumulate", slide: 10, size: 40, delay: 25},
		{kind: "tumble", size: 30, delay: 5, lateness: 40, lateFire: true},
		{kind: "hop", slide: 10, size: 30, delay: 5, lateness: 25, lateFire: true},
		{kind: "tumble", size: 30, delay: 10, early: true},
		{kind: "cumulate", slide: 10, size: 30, delay: 10, early: true, lateFire: true, lateness: 15},
		{kind: "session", gap: 15, delay: 20},
		{kind: "session", gap: 5, delay: 8},
	}
	for ci, c := range configs {
		for seed := uint64(0); seed < 4; seed++ {
			rnd := rand.New(rand.NewPCG(seed, uint64(ci)))
			rows := randomClicks(rnd, 400, 40)
			var want []string
			var wantLate int64
			if c.kind == "session" {
				want, wantLate = referenceSessions(c, rows)
			} else {
				want, wantLate = reference(c, rows)
			}
			for _, size := range []int{1, 7, 4096} {
				events, stats := runInts(t, c.operatorConfig(t), rows, c.delay, size)
				require.Equal(t, want, rowsOnly(events), "config %+v seed %d batch %d", c, seed, size)
				require.Equal(t, wantLate, stats.LateRowsDropped, "config %+v seed %d batch %d", c, seed, size)
			}
		}
	}
}

// runInts is run with the SUM printed as an integer, as the reference does.
func runInts(t *testing.T, cfg Config, rows []click, delay int64, batchSize int) ([]string, Stats) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	return run(t, cfg, rows, delay, batchSize)
}
