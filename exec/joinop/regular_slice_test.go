package joinop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/rowkind"
	"github.com/wsql/wsql/pipeline"
)

// Rows that come as slices of larger batches (as the merge of the two
// inputs passes them on) join by their keys' own bytes: a STRING column's
// ValueBytes start at the slice's first value, its offsets do not. The
// output, materialised, is the naive join's.
func TestRegularJoinOfSlicedBatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []shape{{stringKey: true}, {}} {
		var evs [2][]event
		for range 1500 {
			in := rng.IntN(2)
			evs[in] = append(evs[in], event{input: in, kind: rowkind.Insert, row: row{k: int64(rng.IntN(300)), v: int64(rng.IntN(100))}})
		}
		for _, kind := range []Kind{Inner, Semi, LeftOuter} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			cfg := s.config(kind)
			rec := &recorder{}
			op, err := New(cfg, mem, rec)
			require.NoError(t, err)
			whole := [2]arrow.RecordBatch{regularBatchOf(mem, cfg.Left, evs[0]), regularBatchOf(mem, cfg.Right, evs[1])}
			// each input's first rows alone, then the rest as one slice
			// whose values start a few bytes into the column's data
			for _, cut := range [][2]int{{0, 1}, {1, 3}, {3, -1}} {
				for in := range 2 {
					to := cut[1]
					if to < 0 {
						to = len(evs[in])
					}
					part := whole[in].NewSlice(int64(cut[0]), int64(to))
					require.NoError(t, op.ProcessInput(in, pipeline.Batch{Record: part}))
					part.Release()
				}
			}
			require.NoError(t, op.ProcessEnd())
			op.Close()
			whole[0].Release()
			whole[1].Release()
			mem.AssertSize(t, 0)
			require.Equal(t, naive(s, kind, append(append([]event(nil), evs[0]...), evs[1]...)), materialise(t, cfg.Updates(), rec.rows), "%v %v", s, kind)
		}
	}
}
