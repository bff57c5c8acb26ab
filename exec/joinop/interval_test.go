package joinop

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wsql/wsql/rowtime"
)

func intervalConfig(kind Kind, lower, upper int64, residual bool) Config {
	cfg := Config{Kind: kind, Left: intervalSchema("l"), Right: intervalSchema("r"),
		LeftKeys: []int{0}, RightKeys: []int{0},
		Interval: &Interval{LeftTime: 1, RightTime: 1, Lower: lower, Upper: upper}}
	if residual {
		cfg.Residual = residualVLeW(3)
	}
	return cfg
}

// intervalPairs is the reference's join condition of l and r: keys,
// times and the Residual.
func intervalPairs(cfg Config, l, r *tjRow) bool {
	if !keysMatch(cfg, l, r) {
		return false
	}
	if r.t+cfg.Interval.Lower > l.t || l.t > r.t+cfg.Interval.Upper {
		return false
	}
	return cfg.Residual == nil || !l.vNull && !r.vNull && l.v <= r.v
}

// naiveIntervalJoin joins every pair of rows meeting the condition and
// pads the rows of an outer side that joined nothing: the join the
// operator computes when no row is late.
func naiveIntervalJoin(cfg Config, events []tjEvent) []string {
	return referenceIntervalJoin(cfg, events, func(_, _ *tjRow) bool { return true })
}

// modelIntervalJoin is naiveIntervalJoin where a pair also needs the row
// that came first to be kept when it came and not expired when the second
// came, as Flink decides them: a row at t of a side of relative size rel
// (-Lower left, Upper right) is kept when the watermark it came under is
// below t+rel, and expires once the operator's time reaches t+rel+1.
func modelIntervalJoin(cfg Config, events []tjEvent) []string {
	at := arrivalTimes(events)
	pos := map[*tjRow]int{}
	for i, e := range events {
		if e.row != nil {
			pos[e.row] = i
		}
	}
	rel := func(r *tjRow) int64 {
		if r.side == 0 {
			return -cfg.Interval.Lower
		}
		return cfg.Interval.Upper
	}
	return referenceIntervalJoin(cfg, events, func(l, r *tjRow) bool {
		first, second := l, r
		if pos[r] < pos[l] {
			first, second = r, l
		}
		return at[first] < first.t+rel(first) && first.t+rel(first)+1 > at[second]
	})
}

func referenceIntervalJoin(cfg Config, events []tjEvent, visible func(l, r *tjRow) bool) []string {
	var rows [2][]*tjRow
	for _, e := range events {
		if e.row != nil {
			rows[e.row.side] = append(rows[e.row.side], e.row)
		}
	}
	var out []string
	joined := map[*tjRow]bool{}
	for _, l := range rows[0] {
		for _, r := range rows[1] {
			if intervalPairs(cfg, l, r) && visible(l, r) {
				out = append(out, joinedRow(l, r, 3, false))
				joined[l], joined[r] = true, true
			}
		}
	}
	for side, outer := range []bool{cfg.Kind.leftOuter(), cfg.Kind.rightOuter()} {
		for _, r := range rows[side] {
			if outer && !joined[r] {
				if side == 0 {
					out = append(out, joinedRow(r, nil, 3, false))
				} else {
					out = append(out, joinedRow(nil, r, 3, false))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// intervalStream is a random stream for the interval join; late rows
// (times at or behind their watermark) only when late.
func intervalStream(rnd *rand.Rand, n int, late bool) []tjEvent {
	return genStream(rnd, n, true, func(rnd *rand.Rand, wm int64, r *tjRow) {
		if late {
			r.t = baseOf(wm) + int64(rnd.IntN(14)) - 3
		} else {
			r.t = baseOf(wm) + 1 + int64(rnd.IntN(10))
		}
	})
}

func randomIntervalConfig(rnd *rand.Rand) Config {
	lower := int64(rnd.IntN(11)) - 6
	upper := lower + int64(rnd.IntN(8)) - 1
	return randomKeys(rnd, intervalConfig(Kind(rnd.IntN(4)), lower, upper, rnd.IntN(2) == 0))
}

// checkIntervalStream checks one stream against the references, batch
// sizes and a snapshot.
func checkIntervalStream(t testing.TB, cfg Config, events []tjEvent, late bool, cut int) {
	t.Helper()
	lines := checkBatchSizes(t, cfg, events, cut)
	got := sorted(rowsOf(lines))
	want := modelIntervalJoin(cfg, events)
	if !slices.Equal(got, want) {
		t.Fatalf("%s [%d, %d]:\n got %v\nwant %v", cfg.Kind, cfg.Interval.Lower, cfg.Interval.Upper, got, want)
	}
	if !late {
		if naive := naiveIntervalJoin(cfg, events); !slices.Equal(want, naive) {
			t.Fatalf("no row is late, yet the model %v differs from the naive join %v", want, naive)
		}
	}
}

func TestIntervalJoinDifferential(t *testing.T) {
	for seed := range uint64(300) {
		rnd := rand.New(rand.NewPCG(seed, 7))
		cfg := randomIntervalConfig(rnd)
		late := seed%2 == 1
		events := intervalStream(rnd, 20+rnd.IntN(120), late)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			checkIntervalStream(t, cfg, events, late, rnd.IntN(len(events)+1))
		})
	}
}

// TestIntervalJoinDifferentialManyPages: with pages of 8 slots, each
// side fills many, which leave the store while chains of later rows run
// through them, and go later; cut and restored anywhere.
func TestIntervalJoinDifferentialManyPages(t *testing.T) {
	defer func(shift int) { rowPageShift = shift }(rowPageShift)
	rowPageShift = 3
	for seed := range uint64(100) {
		rnd := rand.New(rand.NewPCG(seed, 11))
		cfg := randomIntervalConfig(rnd)
		cfg.Interval.Lower -= int64(rnd.IntN(30)) // more rows kept: more pages
		late := seed%2 == 1
		events := intervalStream(rnd, 50+rnd.IntN(250), late)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			checkIntervalStream(t, cfg, events, late, rnd.IntN(len(events)+1))
		})
	}
}

func FuzzIntervalJoin(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(3), uint64(40))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		rnd := rand.New(rand.NewPCG(a, b))
		cfg := randomIntervalConfig(rnd)
		late := rnd.IntN(2) == 0
		events := intervalStream(rnd, rnd.IntN(200), late)
		checkIntervalStream(t, cfg, events, late, rnd.IntN(len(events)+1))
	})
}

func tjEventOf(side int, k, t, v, w int64) tjEvent {
	return tjEvent{row: &tjRow{side: side, k: k, t: t, v: v, w: w}}
}

func wmark(w int64) tjEvent { return tjEvent{wm: w} }

// TestIntervalJoinPaddingTimes shows when a LEFT interval join pads a
// row: at once when it came too late to be kept, else when the watermark
// passes its time + -Lower; and the watermark held back by the interval.
func TestIntervalJoinPaddingTimes(t *testing.T) {
	// r.t - 2 <= l.t <= r.t + 3: a left row at t joins right rows of
	// [t-3, t+2], is kept while the watermark is below t+2 and expires at
	// t+3; the output watermark is 3 behind
	cfg := intervalConfig(LeftOuter, -2, 3, false)
	got, stats := runTimeJoin(t, cfg, []tjEvent{
		tjEventOf(0, 1, 10, 0, 0),  // kept until the watermark reaches 13
		tjEventOf(0, 2, 10, 0, 0),  // kept, joins nothing
		tjEventOf(1, 1, 12, 5, 0),  // joins left 10
		wmark(11),                  // forwarded as 8
		tjEventOf(0, 3, 12, 0, 11), // kept: 11 < 14
		tjEventOf(0, 4, 11, 0, 11), // 11 >= 13? no: kept
		tjEventOf(0, 5, 5, 0, 11),  // late: not kept, padded at once
		wmark(13),                  // left 10s expire: key 2 padded
		tjEventOf(1, 3, 13, 6, 13), // joins left 12 of key 3 (13-3 <= 12 <= 13+2)
		wmark(20),                  // 12 and 11 expire: key 4 padded
		tjEventOf(0, 6, 30, 0, 20), // kept
	}, 4096)
	want := []string{
		"1|10|0|1|12|5",
		"wm 8",
		"5|5|0|∅|∅|∅",
		"2|10|0|∅|∅|∅",
		"wm 10",
		"3|12|0|3|13|6",
		"4|11|0|∅|∅|∅",
		"wm 17",
		"6|30|0|∅|∅|∅",
		"end",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%v\nwant\n%v", got, want)
	}
	if stats.LateRows != 0 || stats.RowsIn != 8 || stats.ResultRows != 6 {
		t.Fatalf("stats %+v", stats)
	}
}

// TestIntervalJoinExpiresUnderRowWatermark: a row's own watermark expires
// the kept rows before it joins, and their padding comes out before its
// rows, as a ProcessWatermark would have put it.
func TestIntervalJoinExpiresUnderRowWatermark(t *testing.T) {
	cfg := intervalConfig(FullOuter, 0, 0, false) // equal times
	for _, viaWatermark := range []bool{false, true} {
		events := []tjEvent{
			tjEventOf(1, 1, 5, 0, 0), // right kept until 6
			tjEventOf(0, 2, 4, 0, 0), // left kept until 5
		}
		if viaWatermark {
			events = append(events, wmark(6))
		}
		events = append(events, tjEventOf(0, 1, 5, 0, 6)) // too late for right 5: it expired
		got, _ := runTimeJoin(t, cfg, events, 4096)
		// left 4 expires at 5, right 5 at 6: in that order
		want := []string{"2|4|0|∅|∅|∅", "∅|∅|∅|1|5|0", "1|5|0|∅|∅|∅", "end"}
		if viaWatermark {
			want = []string{"2|4|0|∅|∅|∅", "∅|∅|∅|1|5|0", "wm 6", "1|5|0|∅|∅|∅", "end"}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("watermark call %v: got\n%v\nwant\n%v", viaWatermark, got, want)
		}
	}
}

func TestIntervalJoinRefusesWhatItCannotRun(t *testing.T) {
	for _, cfg := range []Config{
		func() Config { c := intervalConfig(Semi, 0, 1, false); return c }(),
		func() Config { c := intervalConfig(Inner, 0, 1, false); c.Interval.LeftTime = 0; return c }(),
		func() Config { c := intervalConfig(Inner, -rowtime.MaxWatermark, 1, false); return c }(),
	} {
		if _, err := New(cfg, nil, &collector{}); err == nil {
			t.Errorf("%+v: no error", cfg.Interval)
		}
	}
}

// TestIntervalJoinRightPadding: a RIGHT interval join pads a right row
// when the watermark passes its time + Upper, and a row that comes under
// a watermark still joins the kept rows it can.
func TestIntervalJoinRightPadding(t *testing.T) {
	// |l.t - r.t| <= 1: both sides kept until t+1, expiring at t+2; the
	// output watermark 1 behind
	got, _ := runTimeJoin(t, intervalConfig(RightOuter, -1, 1, false), []tjEvent{
		tjEventOf(1, 1, 10, 0, 0),
		tjEventOf(1, 2, 10, 0, 0),
		tjEventOf(0, 1, 11, 0, 0),  // joins right 10 of key 1
		wmark(12),                  // the right 10s expire: key 2 padded
		tjEventOf(1, 3, 12, 0, 12), // kept (12 < 13)
		tjEventOf(1, 1, 12, 0, 12), // joins left 11
	}, 4096)
	want := []string{
		"1|11|0|1|10|0",
		"∅|∅|∅|2|10|0",
		"wm 11",
		"1|11|0|1|12|0",
		"∅|∅|∅|3|12|0",
		"end",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%v\nwant\n%v", got, want)
	}
}

// TestIntervalJoinDifferentialSidesInTurn: each side's rows come in runs
// while the other's expire, so many batches find the other side holding
// no row and only keep theirs (runs of unindexed rows over pages of 8
// slots, NULL keys among them); cut and restored anywhere.
func TestIntervalJoinDifferentialSidesInTurn(t *testing.T) {
	defer func(shift int) { rowPageShift = shift }(rowPageShift)
	rowPageShift = 3
	for seed := range uint64(150) {
		rnd := rand.New(rand.NewPCG(seed, 17))
		cfg := randomIntervalConfig(rnd)
		if seed%3 != 0 {
			cfg.Kind = Inner // an outer side goes row by row
		}
		late := seed%2 == 1
		events := intervalStream(rnd, 60+rnd.IntN(300), late)
		side, left := 0, 0
		for _, e := range events {
			if e.row == nil {
				continue
			}
			if left == 0 {
				side, left = 1-side, 1+rnd.IntN(40)
			}
			e.row.side = side
			left--
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			checkIntervalStream(t, cfg, events, late, rnd.IntN(len(events)+1))
		})
	}
}

// TestRowPageIDs: a page keeps no slice of ids while they run on from its
// first, and every row's id once one breaks the run.
func TestRowPageIDs(t *testing.T) {
	p := &rowPage{}
	add := func(ids ...int32) {
		if len(ids) == 1 {
			p.addID(ids[0])
		} else {
			p.addIDs(len(p.times), ids)
		}
		for range ids {
			p.times = append(p.times, 0)
		}
	}
	ids := func() []int32 {
		var out []int32
		for k := range p.times {
			out = append(out, p.id(k))
		}
		return out
	}
	add(5)
	add(6, 7, 8)
	add()
	add(9)
	if p.ids != nil || !slices.Equal(ids(), []int32{5, 6, 7, 8, 9}) {
		t.Fatalf("a run: slice %v, ids %v", p.ids, ids())
	}
	add(10, 3, 11)
	add(2)
	if !slices.Equal(p.ids, []int32{5, 6, 7, 8, 9, 10, 3, 11, 2}) || !slices.Equal(ids(), p.ids) {
		t.Fatalf("a broken run: slice %v, ids %v", p.ids, ids())
	}
	p = &rowPage{}
	add(4)
	add(1)
	if !slices.Equal(ids(), []int32{4, 1}) {
		t.Fatalf("broken at the second row: %v", ids())
	}
}
