package nexmark

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

// rowsOf is the rows of rec as Drain writes them.
func rowsOf(rec arrow.RecordBatch) []string {
	var rows []string
	for i := range int(rec.NumRows()) {
		row := ""
		for k, c := range rec.Columns() {
			if k > 0 {
				row += "|"
			}
			row += c.ValueStr(i)
		}
		rows = append(rows, row)
	}
	return rows
}

// Two reads of one configuration side by side (Nexmark q5's two reads of
// the bid view) make the rows each would alone, one taking the batches
// the other made; a read of another configuration, or on another
// allocator, takes none. The allocator holds nothing once both are
// closed.
func TestReadsOfOneConfigurationShareBatches(t *testing.T) {
	for _, c := range []struct {
		seeds [2]int64
		apart bool // each read on an allocator of its own
	}{{seeds: [2]int64{7, 7}}, {seeds: [2]int64{7, 8}}, {seeds: [2]int64{7, 7}, apart: true}} {
		seeds := c.seeds
		var want [2][]string
		var srcs [2]*Source
		var schema *arrow.Schema
		for i, seed := range seeds {
			srcs[i], schema = newEvents(20000, seed, [3]int64{})
			require.True(t, srcs[i].PushEquals(0, kindBid))
			want[i] = generatortest.Drain(t, srcs[i], schema, 1000)
		}
		mems := [2]*memory.CheckedAllocator{memory.NewCheckedAllocator(memory.NewGoAllocator())}
		mems[1] = mems[0]
		if c.apart {
			mems[1] = memory.NewCheckedAllocator(memory.NewGoAllocator())
		}
		var readers [2]exec.BatchReader
		for i, s := range srcs {
			r, err := s.Open(mems[i], schema, 1000)
			require.NoError(t, err)
			readers[i] = r
		}
		before := takenBatches.Load()
		var got [2][]string
		for ended := 0; ended < 2; {
			ended = 0
			for i, r := range readers {
				b, err := r.Next()
				require.NoError(t, err)
				if b.End {
					ended++
				}
				if b.Record != nil {
					got[i] = append(got[i], rowsOf(b.Record)...)
					b.Record.Release()
				}
			}
		}
		for _, r := range readers {
			require.NoError(t, r.Close())
		}
		mems[0].AssertSize(t, 0)
		mems[1].AssertSize(t, 0)
		require.Equal(t, want, got, "seeds %v", seeds)
		taken := takenBatches.Load() - before
		if seeds[0] == seeds[1] && !c.apart {
			require.Equal(t, int64(len(want[1])+999)/1000, taken, "every batch of the second read taken")
		} else {
			require.Zero(t, taken)
		}
	}
}
