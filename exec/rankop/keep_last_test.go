package rankop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// keepLastReference is the last-row deduplication row by row: a
// partition's first row is +I, each later one it takes (any, by arrival;
// one of a time not smaller, by time) -U the row it had, +U itself.
func keepLastReference(mode Mode, rows []row, key func(row) string) []string {
	last := map[string]row{}
	var out []string
	for _, r := range rows {
		k := key(r)
		prev, ok := last[k]
		switch {
		case !ok:
			out = append(out, "+I "+r.text())
		case mode == LastByArrival || r.ts >= prev.ts:
			out = append(out, "-U "+prev.text(), "+U "+r.text())
		default:
			continue
		}
		last[k] = r
	}
	return out
}

// The batch-wide deduplication keeping the last row equals the row by
// row reference for every partition key form (a STRING or a BIGINT with
// NULLs looked up by value, two columns or none by their encoding), at
// every batch size, through snapshots (batch size 3).
func TestKeepLastMatchesReference(t *testing.T) {
	value := func(r row) string {
		if r.null {
			return "NULL"
		}
		return fmt.Sprint(r.v)
	}
	keys := map[string]struct {
		cols []int
		key  func(row) string
	}{
		"string":  {[]int{1}, func(r row) string { return r.k }},
		"bigint":  {[]int{2}, value},
		"two":     {[]int{1, 2}, func(r row) string { return r.k + "/" + value(r) }},
		"nothing": {nil, func(row) string { return "" }},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 10 {
		rows := randomRows(rng, 1+rng.IntN(300), 1+rng.IntN(8))
		for name, k := range keys {
			for _, mode := range []Mode{LastByArrival, LastByTime} {
				want := keepLastReference(mode, rows, k.key)
				cfg := Config{Input: testSchema, Partition: k.cols, Rowtime: 0, Mode: mode}
				for _, size := range []int{1, 3, 17, 4096} {
					got, stats := run(t, cfg, rows, size)
					require.Equal(t, want, got, "round %d, key %s, mode %d, batch size %d", round, name, mode, size)
					require.Equal(t, int64(len(want)), stats.ResultRows)
				}
			}
		}
	}
}
