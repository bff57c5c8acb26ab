package joinop

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wsql/wsql/rowtime"
)

func windowConfig(kind Kind, residual bool) Config {
	cfg := Config{Kind: kind, Left: windowSchema("l"), Right: windowSchema("r"),
		LeftKeys: []int{0}, RightKeys: []int{0},
		Window: &Window{LeftStart: 1, LeftEnd: 2, RightStart: 1, RightEnd: 2}}
	if residual {
		cfg.Residual = residualVLeW(4)
	}
	return cfg
}

// naiveWindowJoin joins the rows that are not late (window_end - 1 above
// the operator's time they came at) window by window, in Flink's order
// (windows by end, then start; keys by first arrival; the nested loops of
// WindowJoinOperator's join types), and counts the late ones.
func naiveWindowJoin(cfg Config, events []tjEvent) ([]string, int64) {
	at := arrivalTimes(events)
	type window struct{ end, start int64 }
	type key struct {
		k    int64
		null bool
	}
	rows := map[window]map[key]*[2][]*tjRow{}
	keysOf := map[window][]key{}
	var late int64
	for _, e := range events {
		r := e.row
		if r == nil {
			continue
		}
		if now := at[r]; now != rowtime.MinWatermark && r.end-1 <= now {
			late++
			continue
		}
		w := window{r.end, r.t}
		if rows[w] == nil {
			rows[w] = map[key]*[2][]*tjRow{}
		}
		k := key{r.k, r.kNull}
		if r.kNull {
			k.k = 0
		}
		if rows[w][k] == nil {
			rows[w][k] = &[2][]*tjRow{}
			keysOf[w] = append(keysOf[w], k)
		}
		rows[w][k][r.side] = append(rows[w][k][r.side], r)
	}
	windows := make([]window, 0, len(rows))
	for w := range rows {
		windows = append(windows, w)
	}
	slices.SortFunc(windows, func(a, b window) int { return cmp.Or(cmp.Compare(a.end, b.end), cmp.Compare(a.start, b.start)) })
	matches := func(l, r *tjRow) bool {
		if !keysMatch(cfg, l, r) {
			return false
		}
		return cfg.Residual == nil || !l.vNull && !r.vNull && l.v <= r.v
	}
	semi := cfg.Kind == Semi || cfg.Kind == Anti
	var out []string
	for _, w := range windows {
		for _, k := range keysOf[w] {
			ls, rs := rows[w][k][0], rows[w][k][1]
			if cfg.Kind == RightOuter {
				for _, r := range rs {
					any := false
					for _, l := range ls {
						if matches(l, r) {
							out, any = append(out, joinedRow(l, r, 4, false)), true
						}
					}
					if !any {
						out = append(out, joinedRow(nil, r, 4, false))
					}
				}
				continue
			}
			rMatched := make([]bool, len(rs))
			for _, l := range ls {
				any := false
				for i, r := range rs {
					if matches(l, r) {
						any, rMatched[i] = true, true
						if !semi {
							out = append(out, joinedRow(l, r, 4, false))
						}
					}
				}
				switch {
				case cfg.Kind == Semi && any, cfg.Kind == Anti && !any:
					out = append(out, joinedRow(l, nil, 4, true))
				case !any && (cfg.Kind == LeftOuter || cfg.Kind == FullOuter):
					out = append(out, joinedRow(l, nil, 4, false))
				}
			}
			if cfg.Kind == FullOuter {
				for i, r := range rs {
					if !rMatched[i] {
						out = append(out, joinedRow(nil, r, 4, false))
					}
				}
			}
		}
	}
	return out, late
}

// windowStream is a random stream of tumbling windows of 5 and, when
// mixed, windows of 10 too (two windows share an end, with different
// starts).
func windowStream(rnd *rand.Rand, n int, mixed bool) []tjEvent {
	return genStream(rnd, n, true, func(rnd *rand.Rand, wm int64, r *tjRow) {
		t := baseOf(wm) + int64(rnd.IntN(16)) - 3
		size := int64(5)
		if mixed && rnd.IntN(3) == 0 {
			size = 10
		}
		r.t = t - ((t%size)+size)%size
		r.end = r.t + size
		r.windowJoin = true
	})
}

func checkWindowStream(t testing.TB, cfg Config, events []tjEvent, cut int) {
	t.Helper()
	lines := checkBatchSizes(t, cfg, events, cut)
	_, stats := runTimeJoin(t, cfg, events, 7)
	want, late := naiveWindowJoin(cfg, events)
	if got := rowsOf(lines); !slices.Equal(got, want) {
		t.Fatalf("%s:\n got %v\nwant %v", cfg.Kind, got, want)
	}
	if stats.LateRows != late {
		t.Fatalf("%d late rows, want %d", stats.LateRows, late)
	}
	rows := int64(0)
	for _, e := range events {
		if e.row != nil {
			rows++
		}
	}
	if stats.RowsIn != rows || stats.ResultRows != int64(len(want)) {
		t.Fatalf("stats %+v for %d rows in, %d out", stats, rows, len(want))
	}
}

func TestWindowJoinDifferential(t *testing.T) {
	for seed := range uint64(300) {
		rnd := rand.New(rand.NewPCG(seed, 11))
		cfg := randomKeys(rnd, windowConfig(Kind(rnd.IntN(6)), rnd.IntN(2) == 0))
		events := windowStream(rnd, 20+rnd.IntN(150), seed%2 == 0)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			checkWindowStream(t, cfg, events, rnd.IntN(len(events)+1))
		})
	}
}

func FuzzWindowJoin(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(5), uint64(9))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		rnd := rand.New(rand.NewPCG(a, b))
		cfg := randomKeys(rnd, windowConfig(Kind(rnd.IntN(6)), rnd.IntN(2) == 0))
		events := windowStream(rnd, rnd.IntN(200), rnd.IntN(2) == 0)
		checkWindowStream(t, cfg, events, rnd.IntN(len(events)+1))
	})
}

func wrow(side int, k, start, end, v, w int64) tjEvent {
	return tjEvent{row: &tjRow{side: side, k: k, t: start, end: end, v: v, w: w, windowJoin: true}}
}

// TestWindowJoinFiresAtWindowEnd shows a FULL window join's output: a
// window fires when the watermark reaches its end - 1, its rows before
// the watermark; a row of a fired window is late.
func TestWindowJoinFiresAtWindowEnd(t *testing.T) {
	got, stats := runTimeJoin(t, windowConfig(FullOuter, false), []tjEvent{
		wrow(0, 1, 0, 10, 1, 0),
		wrow(0, 2, 0, 10, 2, 0),
		wrow(1, 2, 0, 10, 3, 0),
		wrow(1, 3, 0, 10, 4, 0),
		wrow(1, 1, 10, 20, 5, 0),
		wmark(8),                 // nothing fires
		wmark(9),                 // [0, 10) fires
		wrow(0, 3, 0, 10, 6, 9),  // late
		wrow(0, 1, 10, 20, 7, 9), // joins right 5 when [10, 20) fires at the end
	}, 4096)
	want := []string{
		"wm 8",
		"1|0|10|1|∅|∅|∅|∅",
		"2|0|10|2|2|0|10|3",
		"∅|∅|∅|∅|3|0|10|4",
		"wm 9",
		"1|10|20|7|1|10|20|5",
		"end",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%v\nwant\n%v", got, want)
	}
	if stats.LateRows != 1 || stats.RowsIn != 7 || stats.ResultRows != 4 {
		t.Fatalf("stats %+v", stats)
	}
}

// TestWindowJoinRightOrder: RIGHT goes through the right rows, as Flink's
// RightOuterJoinOperator; ANTI keeps the left rows without a match.
func TestWindowJoinRightOrder(t *testing.T) {
	events := []tjEvent{
		wrow(0, 1, 0, 10, 1, 0),
		wrow(0, 1, 0, 10, 2, 0),
		wrow(1, 1, 0, 10, 9, 0),
		wrow(1, 1, 0, 10, 0, 0),
		wrow(1, 1, 0, 10, 1, 0),
	}
	got, _ := runTimeJoin(t, windowConfig(RightOuter, true), events, 4096)
	want := []string{
		"1|0|10|1|1|0|10|9",
		"1|0|10|2|1|0|10|9",
		"∅|∅|∅|∅|1|0|10|0",
		"1|0|10|1|1|0|10|1",
		"end",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("RIGHT: got\n%v\nwant\n%v", got, want)
	}
	events = append(events, wrow(0, 1, 0, 10, 10, 0), wrow(0, 2, 0, 10, 0, 0))
	got, _ = runTimeJoin(t, windowConfig(Anti, true), events, 4096)
	want = []string{"1|0|10|10", "2|0|10|0", "end"}
	if !slices.Equal(got, want) {
		t.Fatalf("ANTI: got\n%v\nwant\n%v", got, want)
	}
}

// TestWindowJoinNullSafeKeys: a NULL key matches a NULL key only under
// IS NOT DISTINCT FROM.
func TestWindowJoinNullSafeKeys(t *testing.T) {
	events := []tjEvent{
		{row: &tjRow{side: 0, kNull: true, t: 0, end: 10, v: 1, windowJoin: true, w: rowtime.MinWatermark}},
		{row: &tjRow{side: 1, kNull: true, t: 0, end: 10, v: 2, windowJoin: true, w: rowtime.MinWatermark}},
	}
	cfg := windowConfig(Inner, false)
	if got, _ := runTimeJoin(t, cfg, events, 4096); !slices.Equal(got, []string{"end"}) {
		t.Fatalf("NULL keys joined: %v", got)
	}
	cfg.NullSafe = []bool{true}
	if got, _ := runTimeJoin(t, cfg, events, 4096); !slices.Equal(got, []string{"∅|0|10|1|∅|0|10|2", "end"}) {
		t.Fatalf("NULL-safe keys: %v", got)
	}
}
