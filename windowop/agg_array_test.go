package windowop

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

var nestedAggSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "keep", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "d", Type: &arrow.Decimal128Type{Precision: 5, Scale: 2}, Nullable: true},
}, nil)

// Windows of 10 ms are Flink's ArrayAggFunctionITCase groups, whose rows
// give ARRAY_AGG(f1) and ARRAY_AGG(DISTINCT f1 IGNORE NULLS):
// A: 1, 2 → [1, 2] and [1, 2]; B: 2, 2, 3 → [2, 2, 3] and [2, 3];
// C: 3, NULL → [3, NULL] and [3]; D: NULL → [NULL] and NULL.
// [40, 50) is FLINK-36123's PERCENTILE(col, ARRAY[0.25, 0.75]) over 0 and
// 10: [2.5, 7.5]. PERCENTILE over an empty array is always NULL (Flink's
// function list: "NULL if percentage is an empty array").
var nestedAggRows = [][]any{
	{int64(1), int32(1), "b", true, "1.50"},
	{int64(2), int32(2), "a", false, nil},
	{int64(11), int32(2), "a", true, "2.00"},
	{int64(12), int32(2), nil, true, "2.00"},
	{int64(13), int32(3), "a", nil, "-0.25"},
	{int64(21), int32(3), "", true, nil},
	{int64(22), nil, "", true, nil},
	{int64(31), nil, nil, false, nil},
	{int64(41), int32(10), "z", true, nil},
	{int64(42), int32(0), "z", true, nil},
}

var nestedAggs = []AggSpec{
	{Kind: ArrayAgg, Input: 1, Name: "arr"},
	{Kind: ArrayAgg, Input: 1, Name: "arr_distinct_ignore", Distinct: true, IgnoreNulls: true},
	{Kind: ArrayAgg, Input: 2, Name: "arr_s_kept", Filtered: true, Filter: 3},
	{Kind: Collect, Input: 2, Name: "bag"},
	{Kind: Collect, Input: 2, Name: "set", Distinct: true},
	{Kind: Percentile, Input: 1, PercentageArray: true, Percentages: []float64{0.25, 0.75}, Name: "pcts"},
	{Kind: ArrayAgg, Input: 4, Name: "arr_d", IgnoreNulls: true},
	{Kind: Collect, Input: 3, Name: "bools"},
	{Kind: Percentile, Input: 1, PercentageArray: true, Percentages: []float64{}, Name: "no_pcts"},
}

// bag is a multiset as the recorder shows a map: entries "key:count", in
// order of their first rows.
func bag(entries ...string) string {
	var out []string
	for _, e := range entries {
		k := strings.LastIndexByte(e, ':')
		out = append(out, `{"key":`+e[:k]+`,"value":`+e[k+1:]+`}`)
	}
	return "[" + strings.Join(out, ",") + "]"
}

func TestArrayAggCollectAndPercentiles(t *testing.T) {
	tum, err := NewTumble(10, 0)
	require.NoError(t, err)
	want := []string{
		`row 0 10 9 [1,2] [1,2] ["b"] ` + bag(`"b":1`, `"a":1`) + ` ` + bag(`"b":1`, `"a":1`) + ` [1.25,1.75] ["1.5"] ` + bag(`true:1`, `false:1`) + ` NULL`,
		`row 10 20 19 [2,2,3] [2,3] ["a",null] ` + bag(`"a":2`) + ` ` + bag(`"a":1`) + ` [2,2.5] ["2","2","-0.25"] ` + bag(`true:2`) + ` NULL`,
		`row 20 30 29 [3,null] [3] ["",""] ` + bag(`"":2`) + ` ` + bag(`"":1`) + ` [3,3] NULL ` + bag(`true:2`) + ` NULL`,
		`row 30 40 39 [null] NULL NULL [] [] NULL NULL ` + bag(`false:1`) + ` NULL`,
		`row 40 50 49 [10,0] [10,0] ["z","z"] ` + bag(`"z":2`) + ` ` + bag(`"z":1`) + ` [2.5,7.5] NULL ` + bag(`true:2`) + ` NULL`,
	}
	for _, bs := range []int{1, 3, 10} {
		require.Equal(t, want, runAggRows(t, nestedAggSchema, nestedAggRows, tum, nestedAggs, bs, false), "batch size %d", bs)
		require.Equal(t, want, runAggRows(t, nestedAggSchema, nestedAggRows, tum, nestedAggs, bs, true), "batch size %d, restored", bs)
	}

	// HOP windows merge their panes in arrival order
	hop, err := NewHop(10, 20, 0)
	require.NoError(t, err)
	rows := runAggRows(t, nestedAggSchema, nestedAggRows, hop, nestedAggs, 4, true)
	require.Contains(t, rows, `row 0 20 19 [1,2,2,2,3] [1,2,3] ["b","a",null] `+bag(`"b":1`, `"a":3`)+` `+bag(`"b":1`, `"a":1`)+
		` [2,2] ["1.5","2","2","-0.25"] `+bag(`true:3`, `false:1`)+` NULL`)
	// a session holds every row: its panes merge as they are bridged
	sess, err := NewSession(10)
	require.NoError(t, err)
	for _, bs := range []int{1, 4} {
		rows = runAggRows(t, nestedAggSchema, nestedAggRows, sess, nestedAggs, bs, true)
		require.Equal(t, []string{`row 1 52 51 [1,2,2,2,3,3,null,null,10,0] [1,2,3,10,0] ["b","a",null,"","","z","z"] ` +
			bag(`"b":1`, `"a":3`, `"":2`, `"z":2`) + ` ` + bag(`"b":1`, `"a":1`, `"":1`, `"z":1`) + ` [1.75,3] ["1.5","2","2","-0.25"] ` + bag(`true:7`, `false:2`) + ` NULL`}, rows, "batch size %d", bs)
	}
}

// A sliding count window folds a batch once per overlapping window, so a
// window's values can come out of arrival order: ARRAY_AGG and COLLECT
// still list them by arrival, at any batch size, as the brute force does.
func TestArrayAggThroughSlidingCountWindows(t *testing.T) {
	const size, slide = 5, 2
	rows := randomCountRows(rand.New(rand.NewPCG(11, 12)), 300, 3)
	cfg := CountConfig{Input: countSchema, KeyIndexes: []int{0}, Size: size, Slide: slide, Aggs: []AggSpec{
		{Kind: ArrayAgg, Input: 1, Name: "arr"},
		{Kind: Collect, Input: 1, Name: "bag"},
		{Kind: ArrayAgg, Input: 1, Name: "arr_distinct", Distinct: true, IgnoreNulls: true},
		{Kind: Collect, Input: 1, Name: "set", Distinct: true},
	}}
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
		var all, uniq, counts, ones []string
		seen := map[int32]int{} // rows of each value
		for _, x := range byKey[k][max(0, c-size):c] {
			if x.amtNull {
				all = append(all, "null")
				continue
			}
			all = append(all, fmt.Sprint(x.amount))
			if seen[x.amount]++; seen[x.amount] > 1 {
				continue
			}
			uniq = append(uniq, fmt.Sprint(x.amount))
		}
		for _, x := range byKey[k][max(0, c-size):c] {
			if n := seen[x.amount]; !x.amtNull && n > 0 {
				counts = append(counts, fmt.Sprintf("%d:%d", x.amount, n))
				ones = append(ones, fmt.Sprintf("%d:1", x.amount))
				seen[x.amount] = 0 // listed once, at its first row
			}
		}
		arrOf := func(vs []string) string {
			if len(vs) == 0 {
				return "NULL"
			}
			return "[" + strings.Join(vs, ",") + "]"
		}
		want = append(want, fmt.Sprintf("%s wc=%d n=%s amounts=%s total=%s prices=%s", k, min(c, size),
			arrOf(all), bag(counts...), arrOf(uniq), bag(ones...)))
	}
	for _, bs := range []int{1, 3, 17, 1000} {
		got, _, _ := runCount(t, cfg, rows, bs)
		require.Equal(t, want, got, "batch size %d", bs)
	}
}

func TestArrayAggRefusesNestedValues(t *testing.T) {
	_, err := newAccumulator(AggSpec{Kind: ArrayAgg}, arrow.ListOf(arrow.PrimitiveTypes.Int32))
	require.ErrorContains(t, err, "ARRAY_AGG over list<item: int32, nullable> values is not supported yet")
	_, err = newAccumulator(AggSpec{Kind: Collect, Distinct: true}, arrow.StructOf())
	require.ErrorContains(t, err, "COLLECT over struct<> values is not supported yet")
}

// The state meter counts the values ARRAY_AGG and COLLECT hold.
func TestArrayAggStateIsCounted(t *testing.T) {
	for _, spec := range []AggSpec{{Kind: ArrayAgg, Input: 1}, {Kind: Collect, Input: 1}} {
		acc, err := newAccumulator(spec, arrow.BinaryTypes.String)
		require.NoError(t, err)
		sizer := sizerOf(acc)
		require.NotNil(t, sizer, "%s", spec.Kind)
		acc.resize(1)
		sizes := []int64{0}
		sizer.addHeldBytes([]int32{0}, sizes)
		empty := sizes[0]
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		for i := range 1000 {
			sb.Append(string(rune('a'+i%26)) + "0123456789abcdef" + string(rune('a'+i%7)))
		}
		col := sb.NewArray()
		sb.Release()
		acc.update(col, make([]int32, 1000), 0, 1000)
		col.Release()
		sizes[0] = 0
		sizer.addHeldBytes([]int32{0}, sizes)
		require.Greater(t, sizes[0]-empty, int64(100), "%s", spec.Kind)
	}
}

// ARRAY_AGG's values and COLLECT's past the limit one column holds (2 GiB;
// 40 bytes here) stop the run with ErrStateLimit rather than wrapping
// Arrow's 32-bit offsets: a list that grows past it, and the results of
// one firing (one per user here) that together pass it.
func TestArrayAggLimitIsAnError(t *testing.T) {
	users := func(n int, name func(i int) string) []click {
		var rows []click
		for i := range n {
			rows = append(rows, click{ts: int64(i), usr: name(i)})
		}
		return rows
	}
	same := func(int) string { return "userxxxxx" }
	each := func(i int) string { return fmt.Sprintf("user%dxxxx", i%2) }
	for _, c := range []struct {
		name string
		spec AggSpec
		rows []click
		msg  string
	}{
		// five values of a tag byte and 9 bytes: 50 bytes
		{"one list", AggSpec{Kind: ArrayAgg, Input: 1, Name: "a"}, users(5, same), "a ARRAY_AGG result needs 50 bytes"},
		// two users' lists of 30 bytes: 27 bytes of strings, then 30 more
		{"one firing", AggSpec{Kind: ArrayAgg, Input: 1, Name: "a"}, users(6, each), "a ARRAY_AGG result needs 57 bytes"},
		// COLLECT holds a value once: five users' values of 9 bytes
		{"collect", AggSpec{Kind: Collect, Input: 1, Name: "c"}, users(5, func(i int) string { return fmt.Sprintf("user%dxxxx", i) }), "COLLECT results need 45 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			cfg := tumbleConfig(t, 100)
			cfg.Aggs = []AggSpec{c.spec}
			op, err := NewWindowOperator(cfg, mem, &recorder{})
			require.NoError(t, err)
			defer op.Close()
			switch a := op.accs[0].(type) {
			case *arrayAggAcc:
				a.limit = 40
			case *collectAcc:
				a.limit = 40
			}
			batch := clickBatch(t, mem, c.rows)
			err = op.ProcessBatch(pipeline.Batch{Record: batch})
			batch.Release()
			if err == nil {
				err = op.ProcessEnd()
			}
			require.True(t, errors.Is(err, ErrStateLimit), "%v", err)
			require.ErrorContains(t, err, c.msg)
		})
	}
}
