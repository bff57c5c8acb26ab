package nestedfn

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// init makes Choose the gather of expr's CASE and COALESCE over nested types.
func init() { expr.GatherNested = Choose }

// Choose is the gather of CASE, COALESCE, IF, NULLIF and IFNULL over ROW,
// ARRAY, MAP and MULTISET values (expr.GatherNested): row i of the result is row
// i of vals[choice[i]], NULL where choice[i] < 0. The branches (each of n
// rows, all of type dt) are concatenated behind one NULL row and the rows
// chosen taken at once: one index list and one take per batch.
func Choose(dt arrow.DataType, n int, choice []int32, vals []arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	null := array.MakeArrayOfNull(mem, dt, 1)
	defer null.Release()
	all, err := array.Concatenate(append([]arrow.Array{null}, vals...), mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	idx := make([]int32, n) // one per batch
	for i, k := range choice {
		if k >= 0 {
			idx[i] = 1 + k*int32(n) + int32(i)
		}
	}
	return expr.Take(all, idx, mem)
}
