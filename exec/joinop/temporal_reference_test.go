package joinop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Two naive references for the temporal join over events.
//
// tjFlinkModel runs Flink's TemporalRowTimeJoinOperator row by row: per
// key, a map of versions by time and of probe rows by arrival, and one
// timer at the smallest time registered since the key last fired; when
// it fires, the key's probe rows up to the watermark join the sorted
// versions and the versions older than the one valid at the watermark go.
// It is exact for every stream, late rows included.
//
// tjHistory knows nothing of state: each probe row joins the latest
// version of its key at its time among all the right rows that came
// before the watermark that fired it (of one time, the last one that
// came). It is exact when no row is late, when no cleaning can matter.

type tjOut struct {
	time, seq int64
	line      string
}

// tjKeyName is a key as text; ok is false for a NULL key that joins
// nothing.
func (s tjShape) keyName(k *int64) (string, bool) {
	if k == nil {
		return "NULL", s.nullSafe
	}
	return fmt.Sprint(*k), true
}

// line is the output row of probe row l and version r (nil: NULLs), or
// "" when there is none.
func (s tjShape) line(l tmpEvent, r *tmpEvent) string {
	if r != nil && (r.kind == "-U" || r.kind == "-D" || s.residual && l.val == r.val) {
		r = nil
	}
	if r == nil && !s.outer {
		return ""
	}
	var cells []string
	if s.leftUpdates {
		cells = append(cells, l.kind)
	}
	key := func(k *int64) string {
		if k == nil {
			return "NULL"
		}
		return fmt.Sprint(*k)
	}
	cells = append(cells, fmt.Sprint(l.time), key(l.key), fmt.Sprint(l.val))
	if r == nil {
		cells = append(cells, "NULL", "NULL", "NULL")
	} else {
		cells = append(cells, fmt.Sprint(r.time), key(r.key), fmt.Sprint(r.val))
	}
	return strings.Join(cells, " ")
}

func tjSortedLines(outs []tjOut) []string {
	slices.SortFunc(outs, func(a, b tjOut) int {
		if a.time != b.time {
			return compareInt64(a.time, b.time)
		}
		return compareInt64(a.seq, b.seq)
	})
	var lines []string
	for _, o := range outs {
		if o.line != "" {
			lines = append(lines, o.line)
		}
	}
	return lines
}

func compareInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

type tjModelKey struct {
	right    map[int64]tmpEvent // by time
	left     map[int64]tmpEvent // by arrival
	timer    int64
	hasTimer bool
}

func (k *tjModelKey) register(time int64) {
	if !k.hasTimer || time < k.timer {
		k.timer, k.hasTimer = time, true
	}
}

func tjFlinkModel(s tjShape, events []tmpEvent) []string {
	keys := map[string]*tjModelKey{}
	var unkeyed []tjOut // probe rows of a NULL key, waiting
	var unkeyedRows []tmpEvent
	var lines []string
	wm, seq := int64(math.MinInt64), int64(0)
	fire := func(w int64) {
		var outs []tjOut
		for _, k := range keys {
			if !k.hasTimer || k.timer > w {
				continue
			}
			k.hasTimer = false
			var sorted []tmpEvent
			for _, r := range k.right {
				sorted = append(sorted, r)
			}
			slices.SortFunc(sorted, func(a, b tmpEvent) int { return compareInt64(a.time, b.time) })
			next := int64(math.MaxInt64)
			for sq, l := range k.left {
				if l.time > w {
					next = min(next, l.time)
					continue
				}
				delete(k.left, sq)
				var found *tmpEvent
				for i := range sorted {
					if sorted[i].time <= l.time {
						found = &sorted[i]
					}
				}
				outs = append(outs, tjOut{l.time, sq, s.line(l, found)})
			}
			// firstIndexToKeep: the version valid at w and the later ones
			keep := -1
			for i, r := range sorted {
				if r.time <= w {
					keep = i
				}
			}
			for _, r := range sorted[:max(keep, 0)] {
				delete(k.right, r.time)
			}
			if next < math.MaxInt64 {
				k.register(next)
			}
		}
		var waiting []tjOut
		var waitingRows []tmpEvent
		for i, o := range unkeyed {
			if o.time <= w {
				outs = append(outs, tjOut{o.time, o.seq, s.line(unkeyedRows[i], nil)})
			} else {
				waiting, waitingRows = append(waiting, o), append(waitingRows, unkeyedRows[i])
			}
		}
		unkeyed, unkeyedRows = waiting, waitingRows
		lines = append(lines, tjSortedLines(outs)...)
	}
	keyOf := func(name string) *tjModelKey {
		k, ok := keys[name]
		if !ok {
			k = &tjModelKey{right: map[int64]tmpEvent{}, left: map[int64]tmpEvent{}}
			keys[name] = k
		}
		return k
	}
	for _, e := range events {
		name, ok := s.keyName(e.key)
		switch e.input {
		case tjWatermark:
			if e.time > wm {
				wm = e.time
				fire(wm)
				lines = append(lines, fmt.Sprintf("wm %d", wm))
			}
		case 0:
			seq++
			if !ok {
				unkeyed = append(unkeyed, tjOut{time: e.time, seq: seq})
				unkeyedRows = append(unkeyedRows, e)
				continue
			}
			k := keyOf(name)
			k.left[seq] = e
			k.register(e.time)
		case 1:
			if ok && e.kind != "-U" { // Flink's DropUpdateBefore of a versioned table
				k := keyOf(name)
				k.right[e.time] = e
				k.register(e.time)
			}
		}
	}
	fire(math.MaxInt64)
	return append(lines, "end")
}

func tjHistory(s tjShape, events []tmpEvent) []string {
	type arrived struct {
		e   tmpEvent
		seq int64
	}
	var rights []tmpEvent
	var waiting []arrived
	var lines []string
	wm, seq := int64(math.MinInt64), int64(0)
	fire := func(w int64) {
		var outs []tjOut
		var still []arrived
		for _, l := range waiting {
			if l.e.time > w {
				still = append(still, l)
				continue
			}
			var found *tmpEvent
			name, ok := s.keyName(l.e.key)
			for i, r := range rights {
				rn, rok := s.keyName(r.key)
				if ok && rok && rn == name && r.time <= l.e.time && (found == nil || r.time >= found.time) {
					found = &rights[i]
				}
			}
			outs = append(outs, tjOut{l.e.time, l.seq, s.line(l.e, found)})
		}
		waiting = still
		lines = append(lines, tjSortedLines(outs)...)
	}
	for _, e := range events {
		switch e.input {
		case tjWatermark:
			if e.time > wm {
				wm = e.time
				fire(wm)
				lines = append(lines, fmt.Sprintf("wm %d", wm))
			}
		case 0:
			seq++
			waiting = append(waiting, arrived{e, seq})
		case 1:
			if e.kind != "-U" { // Flink's DropUpdateBefore of a versioned table
				rights = append(rights, e)
			}
		}
	}
	fire(math.MaxInt64)
	return append(lines, "end")
}

// tjRandomEvents is a stream of n events over a few keys, times and
// values, so versions collide, replace each other and fail the residual
// condition; with late, about one row in eight comes after the watermark
// passed its time. It returns how many rows are late.
func tjRandomEvents(rnd *rand.Rand, s tjShape, n int, late bool) ([]tmpEvent, int) {
	var events []tmpEvent
	wm, maxTime, lateRows := int64(0), int64(0), 0
	kinds := []string{"+I", "+I", "+U", "+U", "-U", "-D"}
	for range n {
		if rnd.IntN(8) == 0 {
			w := maxTime - rnd.Int64N(4)
			if rnd.IntN(6) == 0 {
				w = wm - rnd.Int64N(2) // stale: ignored
			}
			events = append(events, tjWM(w))
			wm = max(wm, w)
			continue
		}
		e := tmpEvent{input: rnd.IntN(2), kind: "+I", time: wm + 1 + rnd.Int64N(8), val: rnd.Int64N(3)}
		if late && rnd.IntN(8) == 0 {
			e.time = wm - rnd.Int64N(5)
			lateRows++
		}
		maxTime = max(maxTime, e.time)
		if rnd.IntN(10) > 0 {
			e.key = tjKey(rnd.Int64N(4))
		}
		if e.input == 0 && s.leftUpdates || e.input == 1 && s.rightUpdates {
			e.kind = kinds[rnd.IntN(len(kinds))]
		}
		events = append(events, e)
	}
	return events, lateRows
}

func tjShapes() []tjShape {
	var shapes []tjShape
	for bits := range 32 {
		shapes = append(shapes, tjShape{
			outer: bits&1 != 0, leftUpdates: bits&2 != 0, rightUpdates: bits&4 != 0,
			residual: bits&8 != 0, nullSafe: bits&16 != 0,
		})
	}
	return shapes
}

// TestTemporalJoinMatchesReference runs random streams through the join in
// batches of 1, 3 and 4096 rows and through a snapshot at a random place,
// against Flink's operator run naively, and without late rows also
// against the join of each probe row with its version in the right rows'
// history.
func TestTemporalJoinMatchesReference(t *testing.T) {
	seeds := 4 // each run checks Arrow memory, which records every allocation's caller
	if testing.Short() {
		seeds = 1
	}
	lateRows := 0
	for _, s := range tjShapes() {
		cfg := s.config()
		for seed := range seeds {
			rnd := rand.New(rand.NewPCG(uint64(seed), 19))
			for _, late := range []bool{false, true} {
				events, n := tjRandomEvents(rnd, s, 300, late)
				lateRows += n
				name := fmt.Sprintf("%+v seed %d late %v", s, seed, late)
				want := tjFlinkModel(s, events)
				if !late {
					require.Equal(t, tjHistory(s, events), want, "the references differ: %s", name)
				}
				for _, size := range []int{1, 3, 4096} {
					require.Equal(t, want, tjRun(t, cfg, events, size, -1), "%s, batches of %d", name, size)
				}
				at := rnd.IntN(len(events) + 1)
				require.Equal(t, want, tjRun(t, cfg, events, 3, at), "%s, snapshot before event %d", name, at)
			}
		}
	}
	require.Positive(t, lateRows)
}

// FuzzTemporalJoin decodes a stream from the fuzzer's bytes (the first
// byte the join's shape, then three bytes an event) and checks the join,
// in batches of 1 and of 1-8 rows and through a snapshot, against
// Flink's operator run naively.
func FuzzTemporalJoin(f *testing.F) {
	f.Add([]byte{0x00, 1, 3, 1, 0, 2, 1, 2, 5, 0})
	f.Add([]byte{0x1f, 1, 3, 1, 0, 2, 1, 2, 5, 0, 0x80, 6, 0, 0, 1, 2})
	f.Add([]byte{0x07, 1, 0x13, 1, 3, 0x23, 2, 0, 4, 2, 0x80, 9, 0, 0, 2, 1, 1, 0x45, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		b := data[0]
		s := tjShape{outer: b&1 != 0, leftUpdates: b&2 != 0, rightUpdates: b&4 != 0, residual: b&8 != 0, nullSafe: b&16 != 0}
		size := 1 + int(b>>5)
		kinds := []string{"+I", "+U", "-U", "-D"}
		var events []tmpEvent
		for p := 1; p+3 <= len(data) && len(events) < 500; p += 3 {
			op, tk, v := data[p], data[p+1], data[p+2]
			if op&0x80 != 0 {
				events = append(events, tjWM(int64(tk)))
				continue
			}
			e := tmpEvent{input: int(op & 1), kind: "+I", time: int64(tk & 0x1f), val: int64(v & 3)}
			if k := tk >> 5; k < 7 {
				e.key = tjKey(int64(k))
			}
			if e.input == 0 && s.leftUpdates || e.input == 1 && s.rightUpdates {
				e.kind = kinds[op>>1&3]
			}
			events = append(events, e)
		}
		cfg := s.config()
		want := tjFlinkModel(s, events)
		require.Equal(t, want, tjRun(t, cfg, events, 1, -1))
		require.Equal(t, want, tjRun(t, cfg, events, size, -1))
		require.Equal(t, want, tjRun(t, cfg, events, size, len(events)/2))
	})
}
