package materialize

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/rowkind"
)

// naiveView is the reference: Flink's materialisation written as plainly
// as it reads, a list where a retraction removes the last equal row.
type naiveView []string

func (n *naiveView) apply(kind rowkind.Kind, row string) {
	if !kind.IsRetraction() {
		*n = append(*n, row)
		return
	}
	for i := len(*n) - 1; i >= 0; i-- {
		if (*n)[i] == row {
			*n = slices.Delete(*n, i, i+1)
			return
		}
	}
}

func TestViewAsFlinkMaterialises(t *testing.T) {
	v := NewView[string]()
	for _, c := range []struct {
		kind rowkind.Kind
		row  string
	}{
		{rowkind.Insert, "Bob,1"}, {rowkind.Insert, "Alice,1"}, {rowkind.Insert, "Greg,1"},
		{rowkind.UpdateBefore, "Bob,1"}, {rowkind.UpdateAfter, "Bob,2"},
		{rowkind.Delete, "Nobody,1"}, // not there: ignored
	} {
		v.Apply(c.kind, c.row, c.row)
	}
	require.Equal(t, []string{"Alice,1", "Greg,1", "Bob,2"}, slices.Collect(v.All()))
	require.Equal(t, 3, v.Len())
}

// Random changelogs over few distinct rows (so rows repeat and
// retractions hit duplicates and absent rows) against the reference,
// after every change: long enough runs to sweep many times.
func TestViewAgainstNaiveReference(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		v := NewView[string]()
		var ref naiveView
		for step := range 2000 {
			kind := rowkind.Kind(rng.IntN(4))
			if rng.IntN(3) == 0 { // more insertions, so the view grows and shrinks
				kind = rowkind.Insert
			}
			row := fmt.Sprintf("r%d", rng.IntN(1+int(seed%8)*3))
			v.Apply(kind, row, row)
			ref.apply(kind, row)
			require.Equal(t, len(ref), v.Len(), "seed %d step %d", seed, step)
			if step%7 == 0 || step == 1999 {
				require.Equal(t, append([]string{}, ref...), append([]string{}, slices.Collect(v.All())...), "seed %d step %d", seed, step)
			}
		}
	}
}
