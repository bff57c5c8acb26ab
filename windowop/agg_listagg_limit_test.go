package windowop

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// A LISTAGG result past the limit a string column holds (2 GiB; 40 bytes
// here) stops the run with ErrStateLimit naming the limit, instead of
// wrapping Arrow's 32-bit offsets and panicking: a list that would grow
// past it while rows come, a merge of panes past it, and results of one
// firing that together pass it. Results under the limit still come out.
func TestListAggLimitIsAnError(t *testing.T) {
	users := func(prefix string, n int, ts int64) []click {
		var rows []click
		for i := range n {
			rows = append(rows, click{ts: ts + int64(i), usr: prefix + strings.Repeat("x", 8)})
		}
		return rows
	}
	hop, err := NewHop(10, 20, 0)
	require.NoError(t, err)
	for _, c := range []struct {
		name    string
		assign  Assigner
		batches [][]click
		rows    []string // what went out before the error
		size    string
	}{
		// four values of 9 bytes and three separators: 39 bytes; a fifth passes 40
		{"one list", nil, [][]click{users("a", 4, 0), users("a", 1, 4)}, nil, "needs 49 bytes"},
		{"panes merged", hop, [][]click{users("a", 3, 0), users("a", 3, 10)}, []string{"row axxxxxxxx -10 10 9 3 axxxxxxxx,axxxxxxxx,axxxxxxxx"}, "needs 59 bytes"},
		{"one firing", nil, [][]click{append(users("a", 3, 0), users("b", 3, 1)...)}, nil, "needs 58 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			cfg := tumbleConfig(t, 100)
			if c.assign != nil {
				cfg.Assigner = c.assign
			}
			cfg.Aggs = []AggSpec{{Kind: CountStar, Name: "n"}, {Kind: ListAgg, Input: 1, Name: "l", Separator: ","}}
			rec := &recorder{}
			op, err := NewWindowOperator(cfg, mem, rec)
			require.NoError(t, err)
			defer op.Close()
			op.accs[1].(*listAggAcc).limit = 40

			for _, b := range c.batches {
				batch := clickBatch(t, mem, b)
				if err = op.ProcessBatch(pipeline.Batch{Record: batch}); err == nil {
					err = op.ProcessWatermark(b[len(b)-1].ts)
				}
				batch.Release()
				if err != nil {
					break
				}
			}
			if err == nil {
				err = op.ProcessEnd()
			}
			require.True(t, errors.Is(err, ErrStateLimit), "%v", err)
			require.ErrorContains(t, err, "a LISTAGG result "+c.size+", more than the 40 bytes (2 GiB) one string column holds")
			require.Equal(t, c.rows, rec.rows())
		})
	}
}
