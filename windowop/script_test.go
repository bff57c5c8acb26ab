package windowop

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// TestScripts runs the data-driven window operator scripts in
// testdata/windowop. Commands:
//
//	operator [kind=tumble|hop|cumulate|session] [size=<ms>] [slide=<ms>]
//	         [gap=<ms>] [offset=<ms>] [delay=<ms>] [lateness=<ms>]
//	         [early] [late] [keys=none]
//	    a fresh COUNT(*), SUM(amount) operator keyed by usr (hop: slide,
//	    size; cumulate: slide is the step; early/late: fire on every row)
//	batch
//	<ts> <usr> <amount|NULL>
//	    one batch; each row carries the watermark of the rows before it,
//	    and the watermark after the batch is sent once it is processed
//	watermark <ms>
//	end
//	stats
//
// Each command prints what reached downstream, in order. Rewrite the
// expected output with `go test ./windowop -run TestScripts -rewrite`.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("../testdata/windowop/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		if isCountScript(f) {
			continue // TestCountScripts runs these
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			var h *scriptHarness
			defer func() {
				if h != nil {
					h.close(t)
				}
			}()
			datadriven.RunTest(t, f, func(t *testing.T, d *datadriven.TestData) string {
				if d.Cmd == "operator" {
					if h != nil {
						h.close(t)
					}
					h = newScriptHarness(t, d)
					return ""
				}
				require.NotNil(t, h, "operator must come first")
				return h.run(t, d)
			})
		})
	}
}

type scriptHarness struct {
	mem *memory.CheckedAllocator
	op  *WindowOperator
	rec *recorder
	gen *rowtime.BoundedOutOfOrderness
}

func newScriptHarness(t *testing.T, d *datadriven.TestData) *scriptHarness {
	c := refConfig{kind: "tumble"}
	keys := "usr"
	d.MaybeScanArgs(t, "kind", &c.kind)
	d.MaybeScanArgs(t, "size", &c.size)
	d.MaybeScanArgs(t, "slide", &c.slide)
	d.MaybeScanArgs(t, "gap", &c.gap)
	d.MaybeScanArgs(t, "offset", &c.offset)
	d.MaybeScanArgs(t, "delay", &c.delay)
	d.MaybeScanArgs(t, "lateness", &c.lateness)
	d.MaybeScanArgs(t, "keys", &keys)
	c.early, c.lateFire = d.HasArg("early"), d.HasArg("late")
	cfg := c.operatorConfig(t)
	if keys == "none" {
		cfg.KeyIndexes = nil
	}
	h := &scriptHarness{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), rec: &recorder{},
		gen: rowtime.NewBoundedOutOfOrderness(c.delay)}
	var err error
	h.op, err = NewWindowOperator(cfg, h.mem, h.rec)
	require.NoError(t, err)
	return h
}

func (h *scriptHarness) run(t *testing.T, d *datadriven.TestData) string {
	h.rec.events = nil
	switch d.Cmd {
	case "batch":
		var rows []click
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			f := strings.Fields(line)
			require.Len(t, f, 3, "row %q: want <ts> <usr> <amount>", line)
			ts, err := strconv.ParseInt(f[0], 10, 64)
			require.NoError(t, err)
			r := click{ts: ts, usr: f[1]}
			if f[2] == "NULL" {
				r.null = true
			} else {
				r.amount, err = strconv.ParseFloat(f[2], 64)
				require.NoError(t, err)
			}
			rows = append(rows, r)
		}
		ts := make([]int64, len(rows))
		for i, r := range rows {
			ts[i] = r.ts
		}
		perRow := make([]int64, len(rows))
		before := h.gen.Current()
		after := h.gen.Assign(ts, perRow)
		b := clickBatch(t, h.mem, rows)
		require.NoError(t, h.op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: perRow}))
		b.Release()
		if after > before {
			require.NoError(t, h.op.ProcessWatermark(after))
		}
	case "watermark":
		var wm int64
		d.ScanArgs(t, "ms", &wm)
		require.NoError(t, h.op.ProcessWatermark(wm))
	case "end":
		require.NoError(t, h.op.ProcessEnd())
	case "stats":
		s := h.op.Stats()
		return fmt.Sprintf("rows in %d, late dropped %d, late for some window %d, in no window %d, results %d, open state %d, timers %d\n",
			s.RowsIn, s.LateRowsDropped, s.LateForWindow, s.NoWindowRows, s.ResultRows, h.op.OpenWindows(), h.op.timers.Len())
	default:
		t.Fatalf("unknown command %s", d.Cmd)
	}
	if len(h.rec.events) == 0 {
		return "(nothing)\n"
	}
	return strings.Join(h.rec.events, "\n") + "\n"
}

func (h *scriptHarness) close(t *testing.T) {
	h.op.Close()
	h.op.Close() // Close is idempotent
	h.mem.AssertSize(t, 0)
}
