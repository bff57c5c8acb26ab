package windowop

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
)

// countSchema is the input of the count-window tests: a nullable string
// key, a nullable INT and a nullable DOUBLE.
var countSchema = arrow.NewSchema([]arrow.Field{
	{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "amount", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

type countRow struct {
	usr       string
	usrNull   bool
	amount    int32
	amtNull   bool
	price     float64
	priceNull bool
}

var countAggs = []AggSpec{
	{Kind: CountStar, Name: "n"},
	{Kind: Count, Input: 1, Name: "amounts"},
	{Kind: Sum, Input: 1, Name: "total"},
	{Kind: Sum, Input: 2, Name: "prices"},
}

func countBatch(t testing.TB, mem memory.Allocator, rows []countRow) arrow.RecordBatch {
	t.Helper()
	values := make([][]any, len(rows))
	for i, r := range rows {
		values[i] = []any{orNull(r.usr, r.usrNull), orNull(r.amount, r.amtNull), orNull(r.price, r.priceNull)}
	}
	return arrowtest.Record(t, mem, countSchema, values...)
}

// orNull is v, or nil (NULL) when null is set.
func orNull(v any, null bool) any {
	if null {
		return nil
	}
	return v
}

// countRef is the naive reference: every key keeps all its rows; every
// slide-th row of a key emits the aggregates over the key's last size rows
// (fewer while the key has fewer), as Flink's CountEvictor + CountTrigger
// do. slide == size is the tumbling window.
func countRef(rows []countRow, size, slide int64) []string {
	byKey := map[string][]countRow{}
	var out []string
	for _, r := range rows {
		k := r.usr
		if r.usrNull {
			k = "\x00NULL"
		}
		byKey[k] = append(byKey[k], r)
		all := byKey[k]
		if int64(len(all))%slide != 0 {
			continue
		}
		win := all[max(0, int64(len(all))-size):]
		var amounts, total int64
		var prices float64
		hasTotal, hasPrices := false, false
		for _, w := range win {
			if !w.amtNull {
				amounts++
				total += int64(w.amount)
				hasTotal = true
			}
			if !w.priceNull {
				prices += w.price
				hasPrices = true
			}
		}
		key := r.usr
		if r.usrNull {
			key = "NULL"
		}
		t, p := "NULL", "NULL"
		if hasTotal {
			t = fmt.Sprint(int32(total))
		}
		if hasPrices {
			p = fmt.Sprint(prices)
		}
		out = append(out, fmt.Sprintf("%s wc=%d n=%d amounts=%d total=%s prices=%s", key, len(win), len(win), amounts, t, p))
	}
	return out
}

// countSink renders the operator's output rows like countRef, and records
// watermarks and the end.
type countSink struct {
	events []string
}

func (s *countSink) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	str := func(c, i int) string {
		col := rec.Column(c)
		if col.IsNull(i) {
			return "NULL"
		}
		switch a := col.(type) {
		case *array.String:
			return a.Value(i)
		case *array.Int64:
			return fmt.Sprint(a.Value(i))
		case *array.Int32:
			return fmt.Sprint(a.Value(i))
		case *array.Float64:
			return fmt.Sprint(a.Value(i))
		}
		return col.ValueStr(i)
	}
	for i := range int(rec.NumRows()) {
		s.events = append(s.events, fmt.Sprintf("%s wc=%s n=%s amounts=%s total=%s prices=%s",
			str(0, i), str(1, i), str(2, i), str(3, i), str(4, i), str(5, i)))
	}
	return nil
}

func (s *countSink) ProcessWatermark(wm int64) error {
	s.events = append(s.events, fmt.Sprintf("wm %d", wm))
	return nil
}

func (s *countSink) ProcessEnd() error {
	s.events = append(s.events, "end")
	return nil
}

func (s *countSink) Close() {}

func randomCountRows(rnd *rand.Rand, n, keys int) []countRow {
	rows := make([]countRow, n)
	for i := range rows {
		k := rnd.IntN(keys + 1)
		rows[i] = countRow{
			usr:       fmt.Sprintf("k%d", k),
			usrNull:   k == keys, // one key is NULL
			amount:    int32(rnd.IntN(200) - 100),
			amtNull:   rnd.IntN(5) == 0,
			price:     float64(rnd.IntN(1000)) / 4, // exact in binary
			priceNull: rnd.IntN(7) == 0,
		}
	}
	return rows
}

// runCount feeds rows in batches of the given size, a watermark after each
// batch, then the end; it checks each batch's results arrive before the
// watermark that follows it.
func runCount(t *testing.T, cfg CountConfig, rows []countRow, batch int) ([]string, CountStats, int) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sink := &countSink{}
	op, err := NewCountWindowOperator(cfg, mem, sink)
	require.NoError(t, err)
	defer op.Close()
	maxOpen := 0
	for from, wm := 0, int64(0); from < len(rows); from, wm = from+batch, wm+1 {
		to := min(from+batch, len(rows))
		rec := countBatch(t, mem, rows[from:to])
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
		rec.Release()
		require.NoError(t, op.ProcessWatermark(wm))
		maxOpen = max(maxOpen, op.OpenWindows())
	}
	require.NoError(t, op.ProcessEnd())
	var results []string
	for _, e := range sink.events {
		if !strings.HasPrefix(e, "wm ") && e != "end" {
			results = append(results, e)
		}
	}
	require.Equal(t, "end", sink.events[len(sink.events)-1])
	return results, op.Stats(), maxOpen
}

func TestCountWindowMatchesReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	rows := randomCountRows(rnd, 5000, 13)
	for _, c := range []struct{ size, slide int64 }{
		{1, 0}, {3, 0}, {4, 4}, {100, 0}, {5, 1}, {5, 2}, {7, 3}, {6, 4}, {10, 5}, {64, 7}, {2, 1},
	} {
		t.Run(fmt.Sprintf("size=%d,slide=%d", c.size, c.slide), func(t *testing.T) {
			slide := c.slide
			if slide == 0 {
				slide = c.size
			}
			want := countRef(rows, c.size, slide)
			cfg := CountConfig{Input: countSchema, KeyIndexes: []int{0}, Size: c.size, Slide: c.slide, Aggs: countAggs}
			for _, batch := range []int{1, 7, 4096} {
				got, stats, maxOpen := runCount(t, cfg, rows, batch)
				require.Equal(t, want, got, "batch size %d", batch)
				require.Equal(t, int64(len(rows)), stats.RowsIn)
				require.Equal(t, int64(len(want)), stats.ResultRows)
				// Rows after each key's last firing never reach a result.
				perKey := map[string]int64{}
				for _, r := range rows {
					perKey[fmt.Sprint(r.usr, r.usrNull)]++
				}
				var unfired int64
				for _, n := range perKey {
					unfired += n % slide
				}
				require.Equal(t, unfired, stats.NoWindowRows)
				// State is bounded by keys × windows per row, never rows.
				require.LessOrEqual(t, maxOpen, len(perKey)*int((c.size-1)/slide+1))
			}
		})
	}
}

func TestCountWindowGlobal(t *testing.T) {
	rows := []countRow{{amount: 1}, {amount: 2}, {amount: 3}, {amount: 4}, {amount: 5}}
	for i := range rows {
		rows[i].usr = fmt.Sprint("u", i) // ignored: no keys
		rows[i].priceNull = true
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewCountWindowOperator(CountConfig{Input: countSchema, Size: 3, Slide: 2,
		Aggs: []AggSpec{{Kind: Sum, Input: 1, Name: "s"}}}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	require.Equal(t, []string{"window_count", "s"}, fieldNames(op.Schema()))
	require.Equal(t, arrow.PrimitiveTypes.Int64, op.Schema().Field(0).Type)
	require.Equal(t, arrow.PrimitiveTypes.Int32, op.Schema().Field(1).Type) // SUM(INT) is INT
	b := countBatch(t, mem, rows)
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release()
	require.NoError(t, op.ProcessEnd())
	// Fires at rows 2 (rows 1-2) and 4 (rows 2-4); row 5 never fires.
	require.Equal(t, []string{"row 2 3", "row 3 9", "end"}, rec.events)
	require.Equal(t, CountStats{RowsIn: 5, ResultRows: 2, NoWindowRows: 1}, op.Stats())
}

// TestCountWindowWatermarks: results never wait for a watermark, and
// watermarks pass unchanged (only advancing ones).
func TestCountWindowWatermarks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewCountWindowOperator(CountConfig{Input: countSchema, KeyIndexes: []int{0}, Size: 2,
		Aggs: []AggSpec{{Kind: CountStar, Name: "n"}}}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	feed := func(rows ...countRow) {
		b := countBatch(t, mem, rows)
		// Per-row watermarks are ignored, whatever they say.
		wms := make([]int64, len(rows))
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: wms}))
		b.Release()
	}
	require.NoError(t, op.ProcessWatermark(100))
	feed(countRow{usr: "a"}, countRow{usr: "b"})
	require.Equal(t, []string{"wm 100"}, rec.events)
	feed(countRow{usr: "a"})
	require.NoError(t, op.ProcessWatermark(50)) // ignored: not advancing
	require.NoError(t, op.ProcessWatermark(100))
	require.NoError(t, op.ProcessWatermark(200))
	feed(countRow{usr: "b"}, countRow{usr: "b"})
	require.NoError(t, op.ProcessEnd())
	require.Equal(t, []string{"wm 100", "row a 2 2", "wm 200", "row b 2 2", "end"}, rec.events)
	require.Equal(t, CountStats{RowsIn: 5, ResultRows: 2, NoWindowRows: 1}, op.Stats())
	require.Equal(t, 1, op.OpenWindows())
}

func TestCountConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  CountConfig
		want string
	}{
		{CountConfig{Input: countSchema, Size: 0}, "size must be positive"},
		{CountConfig{Input: countSchema, Size: 3, Slide: -1}, "slide must be positive"},
		{CountConfig{Input: countSchema, Size: 3, Slide: 4}, "slide 4 is larger than its size 3"},
		{CountConfig{Input: countSchema, Size: 3, KeyIndexes: []int{5}}, "key index 5 out of range"},
		{CountConfig{Input: countSchema, Size: 3, Aggs: []AggSpec{{Kind: Sum, Input: 9}}}, "input index 9 out of range"},
		{CountConfig{Input: countSchema, Size: 3, Aggs: []AggSpec{{Kind: Sum, Input: 0}}}, "SUM over utf8 is not supported"},
		{CountConfig{Size: 3}, "no input schema"},
		{CountConfig{Input: countSchema, Size: 1 << 20, Slide: 1}, "puts every row in 1048576 windows; at most 65536"},
		{CountConfig{Input: countSchema, Size: MaxCountWindowOverlap, Slide: 1}, ""},
		{CountConfig{Input: countSchema, Size: 1 << 40}, ""}, // tumbling: one window per row
	} {
		op, err := NewCountWindowOperator(c.cfg, memory.NewGoAllocator(), &recorder{})
		if c.want == "" {
			require.NoError(t, err)
			op.Close()
			continue
		}
		require.ErrorContains(t, err, c.want)
	}
	require.False(t, CountConfig{Size: 3}.Sliding())
	require.False(t, CountConfig{Size: 3, Slide: 3}.Sliding())
	require.True(t, CountConfig{Size: 3, Slide: 1}.Sliding())
}

// TestCountWindowIntKeys groups by two key columns, one of them an integer.
func TestCountWindowIntKeys(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.String},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewCountWindowOperator(CountConfig{Input: schema, KeyIndexes: []int{1, 0}, Size: 2,
		Aggs: []AggSpec{{Kind: Sum, Input: 2, Name: "s"}}}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	b := arrowtest.Record(t, mem, schema,
		[]any{1, "x", 10}, []any{2, "x", 20}, []any{1, "x", 30}, []any{1, "y", 40}, []any{2, "x", 50})
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b}))
	b.Release()
	require.Equal(t, []string{"row x 1 2 40", "row x 2 2 70"}, rec.events)
	require.Equal(t, []string{"b", "a", "window_count", "s"}, fieldNames(op.Schema()))
}

func fieldNames(s *arrow.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name)
	}
	return out
}

// BenchmarkCountWindowOperator measures the operator alone over 1000 keys,
// COUNT(*) and SUM, batches of 4096 rows.
func BenchmarkCountWindowOperator(b *testing.B) {
	for _, c := range []struct{ size, slide int64 }{{100, 0}, {100, 10}, {100, 1}} {
		b.Run(fmt.Sprintf("size=%d,slide=%d", c.size, c.slide), func(b *testing.B) {
			const rows, batch = 1 << 20, 4096
			mem := memory.NewGoAllocator()
			rnd := rand.New(rand.NewPCG(1, 2))
			var batches []arrow.RecordBatch
			for start := 0; start < rows; start += batch {
				batches = append(batches, countBatch(b, mem, randomCountRows(rnd, batch, 1000)))
			}
			cfg := CountConfig{Input: countSchema, KeyIndexes: []int{0}, Size: c.size, Slide: c.slide,
				Aggs: []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: Sum, Input: 2, Name: "s"}}}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				op, err := NewCountWindowOperator(cfg, mem, discard{})
				if err != nil {
					b.Fatal(err)
				}
				for _, bt := range batches {
					if err := op.ProcessBatch(pipeline.Batch{Record: bt}); err != nil {
						b.Fatal(err)
					}
				}
				if err := op.ProcessEnd(); err != nil {
					b.Fatal(err)
				}
				op.Close()
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			for _, bt := range batches {
				bt.Release()
			}
		})
	}
}
