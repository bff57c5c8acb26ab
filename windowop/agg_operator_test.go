package windowop

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
)

// opAggs run through the whole operator; refs compute them by brute force
// over a window's rows in arrival order (usr is column 1, amount 2).
var opAggs = []struct {
	spec AggSpec
	ref  func(rows []click) any
	out  arrow.DataType
}{
	{AggSpec{Kind: CountStar}, func(rows []click) any { return len(rows) }, tInt64},
	{AggSpec{Kind: Min, Input: 2}, func(rows []click) any { return refMin(amounts(rows)) }, tFlt64},
	{AggSpec{Kind: Max, Input: 1}, func(rows []click) any { return refMax(users(rows)) }, tStr},
	{AggSpec{Kind: FirstValue, Input: 2}, func(rows []click) any { return refFirst(amounts(rows)) }, tFlt64},
	{AggSpec{Kind: LastValue, Input: 1}, func(rows []click) any { return refLast(users(rows)) }, tStr},
	{AggSpec{Kind: ListAgg, Input: 1, Separator: "|"}, func(rows []click) any { return refListAgg("|")(users(rows)) }, tStr},
	{AggSpec{Kind: ListAgg, Input: 1, Separator: ";", Distinct: true}, func(rows []click) any { return distinct(refListAgg(";"))(users(rows)) }, tStr},
	{AggSpec{Kind: Avg, Input: 2}, func(rows []click) any { return refAvgFloat(amounts(rows)) }, tFlt64},
	{AggSpec{Kind: Count, Input: 1, Distinct: true}, func(rows []click) any { return distinct(refCount)(users(rows)) }, tInt64},
	{AggSpec{Kind: Sum, Input: 2, Distinct: true}, func(rows []click) any { return distinct(refSumFloat)(amounts(rows)) }, tFlt64},
	// out nil: ref renders the cell as the recorder shows a list or map
	{AggSpec{Kind: ArrayAgg, Input: 2}, refArrayAgg, nil},
	{AggSpec{Kind: Collect, Input: 1}, refCollect, nil},
}

// refArrayAgg is ARRAY_AGG(amount): every value, NULLs too, by arrival.
func refArrayAgg(rows []click) any {
	if len(rows) == 0 {
		return nil
	}
	var vs []string
	for _, r := range rows {
		if r.null {
			vs = append(vs, "null")
		} else {
			vs = append(vs, fmt.Sprint(r.amount))
		}
	}
	return "[" + strings.Join(vs, ",") + "]"
}

// refCollect is COLLECT(usr): each user with its rows, by first arrival.
func refCollect(rows []click) any {
	n := map[string]int{}
	var order []string
	for _, r := range rows {
		if n[r.usr]++; n[r.usr] == 1 {
			order = append(order, r.usr)
		}
	}
	var entries []string
	for _, u := range order {
		entries = append(entries, fmt.Sprintf("%q:%d", u, n[u]))
	}
	return bag(entries...)
}

func amounts(rows []click) []any {
	var out []any
	for _, r := range rows {
		if !r.null {
			out = append(out, r.amount)
		}
	}
	return out
}

func users(rows []click) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r.usr
	}
	return out
}

// refRow renders a window's expected result row as the recorder does.
func refRow(t *testing.T, w Window, rows []click) string {
	mem := memory.NewGoAllocator()
	cells := []string{fmt.Sprint(w.Start), fmt.Sprint(w.End), fmt.Sprint(w.End - 1)}
	for _, a := range opAggs {
		v := a.ref(rows)
		if v == nil {
			cells = append(cells, "NULL")
			continue
		}
		if a.out == nil {
			cells = append(cells, v.(string))
			continue
		}
		col := arrowtest.Array(t, mem, a.out, v)
		cells = append(cells, renderOne(col))
		col.Release()
	}
	return "row " + strings.Join(cells, " ")
}

func aggClicks(r *rand.Rand, n int, disorder int64) []click {
	rows := make([]click, n)
	for i := range rows {
		rows[i] = click{
			ts:     int64(i)*37 + r.Int64N(disorder),
			usr:    []string{"ann", "bob", "cy", "dee"}[r.IntN(4)],
			amount: float64(r.IntN(9) - 4), // integral: sums are exact in any order
			null:   r.IntN(6) == 0,
		}
	}
	return rows
}

func aggConfig(a Assigner) Config {
	cfg := Config{Input: clickSchema, RowtimeIndex: 0, Assigner: a, GapIndex: -1}
	for i, x := range opAggs {
		x.spec.Name = fmt.Sprintf("a%d", i)
		cfg.Aggs = append(cfg.Aggs, x.spec)
	}
	return cfg
}

func sortedRows(events []string) []string {
	var out []string
	for _, e := range events {
		if strings.HasPrefix(e, "row ") {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	return out
}

// HOP windows merge panes when they fire: every aggregate must come out as
// the brute force over the window's rows in arrival order, at any batch
// size. The watermark delay exceeds the disorder, so no row is late.
func TestAggregatesThroughHopPanes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rows := aggClicks(r, 400, 900)
	hop, err := NewHop(300, 1000, 0)
	require.NoError(t, err)
	cfg := aggConfig(hop)

	var want []string
	seen := map[Window]bool{}
	ref := refConfig{kind: "hop", size: 1000, slide: 300}
	for _, row := range rows {
		for _, w := range ref.windowsFor(row.ts) {
			if seen[w] {
				continue
			}
			seen[w] = true
			var in []click
			for _, x := range rows {
				if x.ts >= w.Start && x.ts < w.End {
					in = append(in, x)
				}
			}
			want = append(want, refRow(t, w, in))
		}
	}
	sort.Strings(want)
	for _, bs := range []int{1, 7, 64, 4096} {
		events, stats := run(t, cfg, rows, 1000, bs)
		require.Zero(t, stats.LateRowsDropped)
		require.Equal(t, want, sortedRows(events), "batch size %d", bs)
	}
}

// Sessions merge slots as rows bridge them: the merged state must be the
// brute force over the session's rows in arrival order.
func TestAggregatesThroughSessionMerges(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const gap = 60
	rows := aggClicks(r, 400, 300)
	sess, err := NewSession(gap)
	require.NoError(t, err)
	cfg := aggConfig(sess)

	// sessions by brute force: sort by time, split where rows are more
	// than gap apart (rows exactly gap apart touch and merge)
	byTime := append([]click(nil), rows...)
	sort.SliceStable(byTime, func(i, j int) bool { return byTime[i].ts < byTime[j].ts })
	var want []string
	for i := 0; i < len(byTime); {
		j := i + 1
		for j < len(byTime) && byTime[j].ts <= byTime[j-1].ts+gap {
			j++
		}
		w := Window{Start: byTime[i].ts, End: byTime[j-1].ts + gap}
		var in []click // the session's rows in arrival order
		for _, x := range rows {
			if x.ts >= w.Start && x.ts < w.End {
				in = append(in, x)
			}
		}
		want = append(want, refRow(t, w, in))
		i = j
	}
	sort.Strings(want)
	for _, bs := range []int{1, 5, 64, 4096} {
		// the delay exceeds disorder + gap: no session fires before a row
		// that would extend it arrives
		events, stats := run(t, cfg, rows, 300+gap+1, bs)
		require.Zero(t, stats.LateRowsDropped)
		require.Equal(t, want, sortedRows(events), "batch size %d", bs)
	}
}

// A sliding count window folds a batch once per overlapping window, all
// with the same column: FIRST_VALUE and LAST_VALUE must still see arrival
// order, at any batch size.
func TestAggregatesThroughSlidingCountWindows(t *testing.T) {
	const size, slide = 5, 2
	rows := randomCountRows(rand.New(rand.NewPCG(8, 9)), 300, 3)
	cfg := CountConfig{Input: countSchema, KeyIndexes: []int{0}, Size: size, Slide: slide, Aggs: []AggSpec{
		{Kind: FirstValue, Input: 1, Name: "f"},
		{Kind: LastValue, Input: 2, Name: "l"},
		{Kind: Min, Input: 1, Name: "mi"},
		{Kind: Max, Input: 2, Name: "mx"},
	}}
	// brute force: each key's rows; every slide rows, the last size fire
	var want []string
	byKey := map[string][]countRow{}
	for _, r := range rows {
		k := r.usr
		if r.usrNull {
			k = "NULL"
		}
		byKey[k] = append(byKey[k], r)
		c := len(byKey[k])
		if c%slide != 0 {
			continue
		}
		win := byKey[k][max(0, c-size):c]
		var amounts, prices []any
		for _, x := range win {
			if !x.amtNull {
				amounts = append(amounts, int(x.amount))
			}
			if !x.priceNull {
				prices = append(prices, x.price)
			}
		}
		show := func(v any) string {
			if v == nil {
				return "NULL"
			}
			return fmt.Sprint(v)
		}
		want = append(want, fmt.Sprintf("%s wc=%d n=%s amounts=%s total=%s prices=%s", k, len(win),
			show(refFirst(amounts)), show(refLast(prices)), show(refMin(amounts)), show(refMax(prices))))
	}
	for _, bs := range []int{1, 3, 17, 1000} {
		got, _, _ := runCount(t, cfg, rows, bs)
		require.Equal(t, want, got, "batch size %d", bs)
	}
}

// Every aggregate comes out the same when the operator is restored from a
// checkpoint after each batch, through pane and session merges.
func TestAggregatesThroughRestores(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	rows := aggClicks(r, 300, 300)
	hop, err := NewHop(300, 1000, 0)
	require.NoError(t, err)
	sess, err := NewSession(60)
	require.NoError(t, err)
	for _, a := range []Assigner{hop, sess} {
		cfg := aggConfig(a)
		want, _ := run(t, cfg, rows, 1000, 4096)
		var cuts []batchCut
		for i := 7; i < len(rows)+7; i += 7 {
			cuts = append(cuts, batchCut{end: min(i, len(rows)), watermark: true})
		}
		got, _ := runCutsRestoring(t, cfg, rows, 1000, cuts, func(int) bool { return true })
		require.Equal(t, sortedRows(want), sortedRows(got))
		require.NotEmpty(t, sortedRows(got))
	}
}
