package overop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// A restored operator holds its frames' rows in one round; an operator
// that ran on holds them in the rounds they came in. Floating-point sums
// over a RANGE frame, where many rows of a partition leave at once, must
// not tell the two apart: rows leave oldest first either way. An
// operator restored after every watermark gives bit for bit what one
// never restored gives.
func TestRestoredFramesSumAsTheUninterrupted(t *testing.T) {
	aggs := []windowop.AggSpec{{Kind: windowop.Sum, Input: 8, Name: "s"}, {Kind: windowop.Avg, Input: 7, Name: "a"}}
	for _, frame := range []Config{{Preceding: 3}, {Preceding: 1}, {Rows: true, Preceding: 4}} {
		for seed := uint64(1); seed <= 6; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", frame.FrameText(), seed), func(t *testing.T) {
				cfg := frame
				cfg.Input, cfg.Time, cfg.PartitionBy, cfg.Aggs = numSchema, 0, []int{1}, aggs
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				var outs [2][]arrow.RecordBatch
				var ops [2]*Over
				for i := range ops {
					op, err := New(cfg, mem, &collect{add: func(r arrow.RecordBatch) { r.Retain(); outs[i] = append(outs[i], r) }})
					require.NoError(t, err)
					ops[i] = op
				}
				rng := rand.New(rand.NewPCG(seed, 5))
				ts := int64(0)
				for range 30 {
					rec := numBatch(mem, rng, 1+rng.IntN(80), &ts)
					wm := ts - int64(rng.IntN(4))
					for _, op := range ops {
						require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
						require.NoError(t, op.ProcessWatermark(wm))
					}
					rec.Release()
					var e checkpoint.Encoder
					require.NoError(t, ops[1].SnapshotState(&e))
					ops[1].Close()
					restored, err := New(cfg, mem, ops[1].out)
					require.NoError(t, err)
					d := checkpoint.NewDecoder(e.Data())
					require.NoError(t, restored.RestoreState(d))
					require.NoError(t, d.Finish())
					ops[1] = restored
				}
				for _, op := range ops {
					require.NoError(t, op.ProcessEnd())
					op.Close()
				}
				require.Equal(t, len(outs[0]), len(outs[1]))
				for k, ran := range outs[0] {
					back := outs[1][k]
					for c := numSchema.NumFields(); c < int(ran.NumCols()); c++ {
						x, y := ran.Column(c), back.Column(c)
						require.True(t, array.Equal(x, y) || sameBits(x, y), "batch %d, %s: %s vs %s", k, aggs[c-numSchema.NumFields()].Name, x, y)
					}
					ran.Release()
					back.Release()
				}
			})
		}
	}
}
