package joinop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
)

// tjRunRowWatermarks drives a fresh join of cfg with events as the merge
// of its inputs does: each row carries the watermark in effect when it
// came (the watermark events before it), the rows of one input in a row
// cut into batches of at most size whatever watermarks come between them,
// and the watermark goes to ProcessWatermark only after a batch; eager,
// it is the watermark after the watermark events that follow the batch,
// else the one of the batch's last row. It returns the rows the join
// sent, without the watermarks it forwarded, and each row's watermark.
func tjRunRowWatermarks(t testing.TB, cfg Config, events []tmpEvent, size int, eager bool) (rows, rowWms []string) {
	t.Helper()
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	mem := recycle.New(checked)
	log := &tjLog{sent: "min"}
	op, err := New(cfg, mem, log)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	cur, sent := int64(math.MinInt64), int64(math.MinInt64)
	advance := func() {
		if cur > sent {
			sent = cur
			if err := op.ProcessWatermark(cur); err != nil {
				t.Fatal(err)
			}
		}
	}
	var batch []tmpEvent
	var wms []int64
	for i := 0; i < len(events); {
		e := events[i]
		if e.input == tjWatermark {
			cur = max(cur, e.time)
			i++
			continue
		}
		batch, wms = batch[:0], wms[:0]
		j, w := i, cur
		for k := i; k < len(events) && len(batch) < size; k++ {
			if events[k].input == tjWatermark {
				w = max(w, events[k].time)
				continue
			}
			if events[k].input != e.input {
				break
			}
			batch, wms = append(batch, events[k]), append(wms, w)
			j, cur = k+1, w
		}
		// eager, the watermark events right after the batch too
		for ; eager && j < len(events) && events[j].input == tjWatermark; j++ {
			cur = max(cur, events[j].time)
		}
		schema := cfg.Left
		if e.input == 1 {
			schema = cfg.Right
		}
		rec := tjBatch(checked, schema, batch)
		err := op.ProcessInput(e.input, pipeline.Batch{Record: rec, Watermarks: wms})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		advance()
		i = j
	}
	for _, e := range events {
		if e.input == tjWatermark {
			cur = max(cur, e.time)
		}
	}
	advance()
	if err := op.ProcessEnd(); err != nil {
		t.Fatal(err)
	}
	op.Close()
	mem.Close()
	checked.AssertSize(t, 0)
	return tjRowsOnly(log.lines), log.rowWms
}

// tjRowsOnly is a log's rows without its watermarks and end.
func tjRowsOnly(lines []string) []string {
	var rows []string
	for _, l := range lines {
		if l != "end" && !strings.HasPrefix(l, "wm ") {
			rows = append(rows, l)
		}
	}
	return rows
}

// tjRowWatermarks is the watermark each row of a log went out under: the
// last forwarded before it (a firing's rows go out before the watermark
// that fired them).
func tjRowWatermarks(lines []string) []string {
	var wms []string
	cur := "min"
	for _, l := range lines {
		switch {
		case l == "end":
		case strings.HasPrefix(l, "wm "):
			cur = strings.TrimPrefix(l, "wm ")
		default:
			wms = append(wms, cur)
		}
	}
	return wms
}

// tjOneWatermarkPerGap keeps, of watermark events with no row between
// them, one event, their largest: rows come under a single watermark
// however many rose between them.
func tjOneWatermarkPerGap(events []tmpEvent) []tmpEvent {
	var out []tmpEvent
	for _, e := range events {
		if n := len(out); e.input == tjWatermark && n > 0 && out[n-1].input == tjWatermark {
			out[n-1].time = max(out[n-1].time, e.time)
			continue
		}
		out = append(out, e)
	}
	return out
}

// TestTemporalJoinLateVersionUnderRowWatermark: a version that comes
// late, under a watermark that already passed a payment's time, comes
// after that payment fired, at every batch size, even though the merge
// forwards the watermark only after the late version's batch.
func TestTemporalJoinLateVersionUnderRowWatermark(t *testing.T) {
	const at10 = int64(10 * 3600 * 1000) // 10:00:00
	sec := func(s int64) int64 { return at10 + s*1000 }
	const eur = 1
	events := []tmpEvent{
		tjR("+I", sec(0), eur, 110),
		tjR("+I", sec(10), eur, 120),
		tjL(sec(5), eur, 1),  // p1
		tjL(sec(20), eur, 2), // p2
		tjWM(sec(10)),
		tjR("+I", sec(3), eur, 115), // late
	}
	cfg := tjShape{}.config()
	want := []string{
		fmt.Sprintf("%d 1 1 %d 1 110", sec(5), sec(0)),
		fmt.Sprintf("%d 1 2 %d 1 120", sec(20), sec(10)),
	}
	wantWms := []string{"min", fmt.Sprint(sec(10))}
	require.Equal(t, want, tjRowsOnly(tjFlinkModel(tjShape{}, events)))
	for _, size := range []int{1, 3, 4096} {
		for _, eager := range []bool{false, true} {
			rows, wms := tjRunRowWatermarks(t, cfg, events, size, eager)
			require.Equal(t, want, rows, "batches of %d, eager %v", size, eager)
			require.Equal(t, wantWms, wms, "batches of %d, eager %v", size, eager)
		}
	}
}

// TestTemporalJoinRowWatermarksMatchReference runs random streams whose
// rows carry the watermark they came under through the join in batches
// of 1, 3 and 4096 rows, the watermark forwarded only after a batch, and
// checks the rows and the watermark each goes out under against Flink's
// operator run naively on the same stream.
func TestTemporalJoinRowWatermarksMatchReference(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for _, s := range tjShapes() {
		cfg := s.config()
		for seed := range seeds {
			rnd := rand.New(rand.NewPCG(uint64(seed), 23))
			for _, late := range []bool{false, true} {
				events, _ := tjRandomEvents(rnd, s, 300, late)
				events = tjOneWatermarkPerGap(events)
				model := tjFlinkModel(s, events)
				want, wantWms := tjRowsOnly(model), tjRowWatermarks(model)
				// driven by watermarks only, the join's rows say the
				// watermark last forwarded
				lines := tjRun(t, cfg, events, 1, -1)
				require.Equal(t, model, lines)
				name := fmt.Sprintf("%+v seed %d late %v", s, seed, late)
				for _, size := range []int{1, 3, 4096} {
					for _, eager := range []bool{false, true} {
						rows, wms := tjRunRowWatermarks(t, cfg, events, size, eager)
						require.Equal(t, want, rows, "%s, batches of %d, eager %v", name, size, eager)
						require.Equal(t, wantWms, wms, "%s, batches of %d, eager %v: row watermarks", name, size, eager)
					}
				}
			}
		}
	}
}
