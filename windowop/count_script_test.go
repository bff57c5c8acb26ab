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
)

// TestCountScripts runs the data-driven count-window scripts
// testdata/windowop/count_*.txt (TestScripts leaves them to this test).
// Commands:
//
//	operator size=<n> [slide=<n>] [keys=none]
//	    a fresh COUNT(*), SUM(amount) count-window operator keyed by usr
//	batch
//	<usr> <amount|NULL>
//	    one batch of rows
//	watermark ms=<ms>
//	end
//	stats
//
// Each command prints what reached downstream, in order. Rewrite the
// expected output with `go test ./windowop -run TestCountScripts -rewrite`.
func TestCountScripts(t *testing.T) {
	files, err := filepath.Glob("../testdata/windowop/count_*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var h *countScriptHarness
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
					h = newCountScriptHarness(t, d)
					return ""
				}
				require.NotNil(t, h, "operator must come first")
				return h.run(t, d)
			})
		})
	}
}

// isCountScript tells TestScripts which scripts are TestCountScripts'.
func isCountScript(path string) bool { return strings.HasPrefix(filepath.Base(path), "count_") }

type countScriptHarness struct {
	mem *memory.CheckedAllocator
	op  *CountWindowOperator
	rec *recorder
}

func newCountScriptHarness(t *testing.T, d *datadriven.TestData) *countScriptHarness {
	cfg := CountConfig{Input: countSchema, KeyIndexes: []int{0},
		Aggs: []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: Sum, Input: 1, Name: "total"}}}
	keys := "usr"
	d.ScanArgs(t, "size", &cfg.Size)
	d.MaybeScanArgs(t, "slide", &cfg.Slide)
	d.MaybeScanArgs(t, "keys", &keys)
	if keys == "none" {
		cfg.KeyIndexes = nil
	}
	h := &countScriptHarness{mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), rec: &recorder{}}
	var err error
	h.op, err = NewCountWindowOperator(cfg, h.mem, h.rec)
	require.NoError(t, err)
	return h
}

func (h *countScriptHarness) run(t *testing.T, d *datadriven.TestData) string {
	h.rec.events = nil
	switch d.Cmd {
	case "batch":
		var rows []countRow
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			f := strings.Fields(line)
			require.Len(t, f, 2, "row %q: want <usr> <amount>", line)
			r := countRow{usr: f[0], usrNull: f[0] == "NULL", priceNull: true}
			if f[1] == "NULL" {
				r.amtNull = true
			} else {
				v, err := strconv.ParseInt(f[1], 10, 32)
				require.NoError(t, err)
				r.amount = int32(v)
			}
			rows = append(rows, r)
		}
		b := countBatch(t, h.mem, rows)
		require.NoError(t, h.op.ProcessBatch(pipeline.Batch{Record: b}))
		b.Release()
	case "watermark":
		var wm int64
		d.ScanArgs(t, "ms", &wm)
		require.NoError(t, h.op.ProcessWatermark(wm))
	case "end":
		require.NoError(t, h.op.ProcessEnd())
	case "stats":
		s := h.op.Stats()
		return fmt.Sprintf("rows in %d, results %d, unfired %d, open state %d\n",
			s.RowsIn, s.ResultRows, s.NoWindowRows, h.op.OpenWindows())
	default:
		t.Fatalf("unknown command %s", d.Cmd)
	}
	if len(h.rec.events) == 0 {
		return "(nothing)\n"
	}
	return strings.Join(h.rec.events, "\n") + "\n"
}

func (h *countScriptHarness) close(t *testing.T) {
	h.op.Close()
	h.op.Close() // Close is idempotent
	h.mem.AssertSize(t, 0)
}
