package wsql

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// groupingKeys are the keys the random grouping sets draw from.
var groupingKeys = []string{"a", "b", "c"}

// groupingNulls are the NULLs a reference query selects for a key
// outside its set.
var groupingNulls = map[string]string{"a": "CAST(NULL AS STRING)", "b": "CAST(NULL AS INT)", "c": "CAST(NULL AS BOOLEAN)"}

// randomGrouping draws a GROUP BY clause of grouping sets and the sets it
// means, computed here apart from the dialect's reader: GROUPING SETS of
// subsets (the empty one and repeats too), ROLLUP, CUBE, or a plain key
// with a ROLLUP or CUBE.
func randomGrouping(rng *rand.Rand) (string, [][]string) {
	perm := func(n int) []string {
		keys := slices.Clone(groupingKeys)
		rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		return keys[:n]
	}
	rollup := func(keys []string) [][]string {
		var sets [][]string
		for n := len(keys); n >= 0; n-- {
			sets = append(sets, keys[:n])
		}
		return sets
	}
	cube := func(keys []string) [][]string {
		var sets [][]string
		for m := 0; m < 1<<len(keys); m++ {
			var set []string
			for i, k := range keys {
				if m&(1<<i) != 0 {
					set = append(set, k)
				}
			}
			sets = append(sets, set)
		}
		return sets
	}
	switch rng.IntN(4) {
	case 0:
		var sets [][]string
		var texts []string
		for range 1 + rng.IntN(4) {
			set := perm(rng.IntN(4))
			sets = append(sets, set)
			texts = append(texts, "("+strings.Join(set, ", ")+")")
		}
		return "GROUPING SETS (" + strings.Join(texts, ", ") + ")", sets
	case 1:
		keys := perm(1 + rng.IntN(3))
		return "ROLLUP (" + strings.Join(keys, ", ") + ")", rollup(keys)
	case 2:
		keys := perm(1 + rng.IntN(3))
		return "CUBE (" + strings.Join(keys, ", ") + ")", cube(keys)
	}
	keys := perm(3)
	inner, sets := "ROLLUP", rollup(keys[1:])
	if rng.IntN(2) == 0 {
		inner, sets = "CUBE", cube(keys[1:])
	}
	for i := range sets {
		sets[i] = append([]string{keys[0]}, sets[i]...)
	}
	return keys[0] + ", " + inner + " (" + strings.Join(keys[1:], ", ") + ")", sets
}

// groupingInput writes n random rows: a few keys each with NULLs, event
// times mostly ascending, some out of order (late for a 2 s watermark).
func groupingInput(t *testing.T, rng *rand.Rand, n int) string {
	var b strings.Builder
	ms := int64(0)
	for range n {
		ms += rng.Int64N(3000)
		ts := max(0, ms-rng.Int64N(4000)*int64(rng.IntN(5)/4))
		a := []string{"x", "y", "z", ""}[rng.IntN(4)]
		bv := []string{"1", "2", "3", ""}[rng.IntN(4)]
		c := []string{"true", "false", ""}[rng.IntN(3)]
		v := ""
		if rng.IntN(6) > 0 {
			v = fmt.Sprint(rng.IntN(100) - 20)
		}
		fmt.Fprintf(&b, "1970-01-01 00:%02d:%02d.%03d,%s,%s,%s,%s\n", ts/60000%60, ts/1000%60, ts%1000, a, bv, c, v)
	}
	path := filepath.Join(t.TempDir(), "in.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// materialized runs one query and returns its result rows, an update
// stream's changes applied (+I and +U add a row, -U and -D take one
// away), sorted.
func materialized(t *testing.T, src string, batchSize int, opts ...Option) []string {
	out := runScript(t, src, batchSize, opts...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.NotEmpty(t, lines)
	require.False(t, strings.HasPrefix(lines[len(lines)-1], "error"), out)
	header, changes := lines[0], strings.HasPrefix(lines[0], "op,")
	_ = header
	count := map[string]int{}
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "-- ") {
			continue
		}
		row := l
		d := 1
		if changes {
			op, rest, _ := strings.Cut(l, ",")
			row = rest
			if op == "-U" || op == "-D" {
				d = -1
			}
		}
		count[row] += d
		require.GreaterOrEqual(t, count[row], 0, "a change takes away a row that is not there: %s", l)
	}
	var rows []string
	for r, n := range count {
		for range n {
			rows = append(rows, r)
		}
	}
	sort.Strings(rows)
	return rows
}

// Each grouping-sets query, with a window and without, equals the union
// of one plain GROUP BY per set (its missing keys NULL, GROUPING's value
// a constant), each run through the engine without an Expand; at random
// batch sizes and parallelism.
func TestGroupingSetsEqualTheUnionOfGroupBys(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2026))
	for round := range 24 {
		in := groupingInput(t, rng, 20+rng.IntN(120))
		table := fmt.Sprintf("CREATE TABLE t (ts TIMESTAMP(3), a STRING, b INT, c BOOLEAN, v BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)\n"+
			"WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n", filepath.ToSlash(in))
		clause, sets := randomGrouping(rng)
		windowed := round%2 == 1
		win, winItem := "", ""
		if windowed {
			win, winItem = "TUMBLE(ts, INTERVAL '10' SECOND), ", "TUMBLE_START(ts, INTERVAL '10' SECOND) AS w, "
		}
		// the keys of some set: selecting another is an error, as in Flink
		var keys []string
		for _, k := range groupingKeys {
			if slices.ContainsFunc(sets, func(set []string) bool { return slices.Contains(set, k) }) {
				keys = append(keys, k)
			}
		}
		aggs := "COUNT(*) AS n, SUM(v) AS s, MIN(v) AS lo"
		grouping := ""
		if len(keys) > 0 {
			grouping = strings.Join(keys, ", ") + ", GROUPING(" + strings.Join(keys, ", ") + ") AS g, "
		}
		query := fmt.Sprintf("SELECT %s%s%s FROM t GROUP BY %s%s;\n", winItem, grouping, aggs, win, clause)
		opts := []Option{}
		if rng.IntN(2) == 0 {
			opts = append(opts, WithParallelism(3))
		}
		got := materialized(t, table+query, []int{1, 3, 7, 4096}[rng.IntN(4)], opts...)

		var want []string
		for _, set := range sets {
			var items []string
			g := 0
			for i, k := range keys {
				if slices.Contains(set, k) {
					items = append(items, k)
				} else {
					items = append(items, groupingNulls[k]+" AS "+k)
					g |= 1 << (len(keys) - 1 - i)
				}
			}
			if len(keys) > 0 {
				items = append(items, fmt.Sprintf("%d AS g", g))
				items[len(items)-1] += ", "
			}
			group := strings.Join(set, ", ")
			if windowed {
				group = strings.TrimSuffix(win+group, ", ")
			}
			q := fmt.Sprintf("SELECT %s%s%s FROM t", winItem, strings.Join(items, ", "), aggs)
			if group != "" {
				q += " GROUP BY " + group
			}
			want = append(want, materialized(t, table+q+";\n", 4096)...)
		}
		sort.Strings(want)
		require.Equal(t, want, got, "round %d: GROUP BY %s%s", round, win, clause)
	}
}
