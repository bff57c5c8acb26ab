package wsql

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestScalarSubqueriesMatchABatchEvaluation runs scalar subqueries,
// uncorrelated and correlated, in WHERE, the select list and HAVING, over
// random tables at batch sizes 1, 3 and 4096, and requires the
// materialised result (the changelog applied) to equal the query
// evaluated naively over the whole tables.
func TestScalarSubqueriesMatchABatchEvaluation(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewSource(seed))
		dir := t.TempDir()
		tRows := randomPairs(rng, 1+rng.Intn(15), false)
		uRows := randomPairs(rng, rng.Intn(12), seed%2 == 0) // unique keys: SINGLE_VALUE never fails
		writePairs(t, filepath.Join(dir, "t.csv"), tRows)
		writePairs(t, filepath.Join(dir, "u.csv"), uRows)
		ddl := fmt.Sprintf(`CREATE TABLE t (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
CREATE TABLE u (k INT, w INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
`, filepath.Join(dir, "t.csv"), filepath.Join(dir, "u.csv"))
		c := rng.Intn(20)
		maxW := aggregate(uRows, func(pair) bool { return true }, maxOf)
		cases := []struct {
			query string
			want  []string
		}{{
			fmt.Sprintf("SELECT k, v FROM t WHERE v + %d > (SELECT MAX(w) FROM u)", c),
			rowsWhere(tRows, func(r pair) []string {
				if r.v == nil || maxW == nil || *r.v+c <= *maxW {
					return nil
				}
				return []string{cell(r.k), cell(r.v)}
			}),
		}, {
			"SELECT k, v, (SELECT MAX(w) FROM u WHERE u.k = t.k) AS m FROM t",
			rowsWhere(tRows, func(r pair) []string {
				return []string{cell(r.k), cell(r.v), cell(aggregate(uRows, sameKey(r.k), maxOf))}
			}),
		}, {
			"SELECT v, (SELECT SUM(w) FROM u WHERE t.k = u.k AND w > 3) - v AS d FROM t WHERE k IS NOT NULL",
			rowsWhere(tRows, func(r pair) []string {
				if r.k == nil {
					return nil
				}
				s := aggregate(uRows, func(p pair) bool { return sameKey(r.k)(p) && p.v != nil && *p.v > 3 }, sumOf)
				return []string{cell(r.v), cell(minus(s, r.v))}
			}),
		}, {
			fmt.Sprintf("SELECT k, SUM(v) AS s FROM t GROUP BY k HAVING SUM(v) > (SELECT MIN(w) FROM u) - %d", c),
			groupedAbove(tRows, func(*int) *int { return aggregate(uRows, func(pair) bool { return true }, minOf) }, c),
		}, {
			// COUNT over no rows is 0, not the join's NULL
			"SELECT k, (SELECT COUNT(*) FROM u WHERE u.k = t.k) AS n, (SELECT COUNT(w) + 1 FROM u WHERE u.k = t.k) AS m FROM t",
			rowsWhere(tRows, func(r pair) []string {
				n, m := 0, 1
				for _, p := range uRows {
					if sameKey(r.k)(p) {
						n++
						if p.v != nil {
							m++
						}
					}
				}
				return []string{cell(r.k), strconv.Itoa(n), strconv.Itoa(m)}
			}),
		}, {
			"SELECT k, SUM(v) AS s FROM t GROUP BY k HAVING SUM(v) > (SELECT MAX(w) FROM u WHERE u.k = t.k)",
			groupedAbove(tRows, func(k *int) *int { return aggregate(uRows, sameKey(k), maxOf) }, 0),
		}}
		if seed%2 == 0 {
			cases = append(cases, struct {
				query string
				want  []string
			}{
				"SELECT k, (SELECT w FROM u WHERE u.k = t.k) AS w FROM t",
				rowsWhere(tRows, func(r pair) []string {
					return []string{cell(r.k), cell(aggregate(uRows, sameKey(r.k), maxOf))}
				}),
			})
		}
		for _, tc := range cases {
			for _, size := range []int{1, 3, 4096} {
				got := materialiseCSV(t, runScript(t, ddl+tc.query+";", size))
				want := append([]string{}, tc.want...)
				slices.Sort(want)
				require.Equal(t, want, got, "seed %d, batch size %d: %s\nt=%v\nu=%v", seed, size, tc.query, tRows, uRows)
			}
		}
	}
}

// pair is a row (k, v) of t or (k, w) of u; nil is NULL.
type pair struct{ k, v *int }

func (p pair) String() string { return "(" + cell(p.k) + "," + cell(p.v) + ")" }

func randomPairs(rng *rand.Rand, n int, uniqueKeys bool) []pair {
	var out []pair
	used := map[int]bool{}
	for range n {
		var p pair
		if rng.Intn(8) > 0 {
			k := rng.Intn(5)
			if uniqueKeys && used[k] {
				continue
			}
			used[k] = true
			p.k = &k
		}
		if rng.Intn(6) > 0 {
			v := rng.Intn(30)
			p.v = &v
		}
		out = append(out, p)
	}
	return out
}

func writePairs(t *testing.T, path string, rows []pair) {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(cell(r.k) + "," + cell(r.v) + "\n")
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
}

func cell(x *int) string {
	if x == nil {
		return ""
	}
	return strconv.Itoa(*x)
}

func sameKey(k *int) func(pair) bool {
	return func(p pair) bool { return k != nil && p.k != nil && *p.k == *k }
}

func maxOf(a, b int) int { return max(a, b) }
func minOf(a, b int) int { return min(a, b) }
func sumOf(a, b int) int { return a + b }

// aggregate folds the non-NULL second values of the rows that pass; NULL
// when none.
func aggregate(rows []pair, pass func(pair) bool, fold func(a, b int) int) *int {
	var acc *int
	for _, r := range rows {
		if !pass(r) || r.v == nil {
			continue
		}
		if acc == nil {
			x := *r.v
			acc = &x
			continue
		}
		x := fold(*acc, *r.v)
		acc = &x
	}
	return acc
}

func minus(a, b *int) *int {
	if a == nil || b == nil {
		return nil
	}
	x := *a - *b
	return &x
}

// rowsWhere renders each row of rows that f keeps as a CSV line.
func rowsWhere(rows []pair, f func(pair) []string) []string {
	var out []string
	for _, r := range rows {
		if cells := f(r); cells != nil {
			out = append(out, strings.Join(cells, ","))
		}
	}
	return out
}

// groupedAbove is SELECT k, SUM(v) FROM t GROUP BY k HAVING SUM(v) >
// lo(k) - c.
func groupedAbove(rows []pair, loOf func(k *int) *int, c int) []string {
	groups := map[string]*int{}
	keyOf := map[string]*int{}
	var keys []string
	for _, r := range rows {
		k := cell(r.k)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
			groups[k] = nil
			keyOf[k] = r.k
		}
		if r.v != nil {
			s := *r.v
			if g := groups[k]; g != nil {
				s += *g
			}
			groups[k] = &s
		}
	}
	var out []string
	for _, k := range keys {
		if s, lo := groups[k], loOf(keyOf[k]); s != nil && lo != nil && *s > *lo-c {
			out = append(out, k+","+cell(s))
		}
	}
	return out
}

// materialiseCSV applies a CSV changelog (op column +I, +U add a row, -U,
// -D take one away) or takes an append-only result as it is, and returns
// the rows left, sorted, without the header and summaries.
func materialiseCSV(t *testing.T, text string) []string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	require.NotEmpty(t, lines)
	require.False(t, strings.HasPrefix(lines[0], "error"), text)
	changelog := strings.HasPrefix(lines[0], "op,")
	count := map[string]int{}
	for _, line := range lines[1:] {
		switch {
		case strings.HasPrefix(line, "-- "):
		case strings.HasPrefix(line, "error"):
			t.Fatal(text)
		case !changelog:
			count[line]++
		case strings.HasPrefix(line, "+I,") || strings.HasPrefix(line, "+U,"):
			count[line[3:]]++
		case strings.HasPrefix(line, "-U,") || strings.HasPrefix(line, "-D,"):
			count[line[3:]]--
		}
	}
	out := []string{}
	for row, n := range count {
		require.GreaterOrEqual(t, n, 0, "row %s taken away more often than added:\n%s", row, text)
		for range n {
			out = append(out, row)
		}
	}
	slices.Sort(out)
	return out
}
