package wsql

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Inner joins of three or four tables, written in random orders with
// random equalities in WHERE, give the rows of the naive join (every
// combination of rows that satisfies the equalities), whatever order the
// planner chooses.
func TestJoinOrderGivesTheNaiveJoin(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for seed := range uint64(80) {
		rnd := rand.New(rand.NewPCG(seed, 7))
		n := 3 + rnd.IntN(2)
		tables := make([][][2]int, n)
		var ddl strings.Builder
		for i := range tables {
			var csv strings.Builder
			for range rnd.IntN(6) {
				row := [2]int{rnd.IntN(3), rnd.IntN(3)}
				tables[i] = append(tables[i], row)
				fmt.Fprintf(&csv, "%d,%d\n", row[0], row[1])
			}
			path := filepath.Join(dir, fmt.Sprintf("s%d-t%d.csv", seed, i))
			require.NoError(t, os.WriteFile(path, []byte(csv.String()), 0o644))
			fmt.Fprintf(&ddl, "CREATE TABLE t%d (a%d INT, b%d INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');\n", i, i, i, path)
		}
		// equalities between random columns of random pairs of tables
		type eq struct{ l, lc, r, rc int }
		var eqs []eq
		var conds []string
		for range n - 1 + rnd.IntN(2) {
			l, r := rnd.IntN(n), rnd.IntN(n)
			if l == r {
				continue
			}
			e := eq{l, rnd.IntN(2), r, rnd.IntN(2)}
			eqs = append(eqs, e)
			conds = append(conds, fmt.Sprintf("%s%d = %s%d", "ab"[e.lc:e.lc+1], e.l, "ab"[e.rc:e.rc+1], e.r))
		}
		from := rnd.Perm(n)
		var names []string
		for _, i := range from {
			names = append(names, fmt.Sprintf("t%d", i))
		}
		query := "SELECT * FROM " + strings.Join(names, ", ")
		if len(conds) > 0 {
			query += " WHERE " + strings.Join(conds, " AND ")
		}

		var want []string
		var walk func(k int, rows [][2]int)
		walk = func(k int, rows [][2]int) {
			if k == n {
				for _, e := range eqs {
					if rows[e.l][e.lc] != rows[e.r][e.rc] {
						return
					}
				}
				var cells []string
				for _, i := range from {
					cells = append(cells, fmt.Sprint(rows[i][0]), fmt.Sprint(rows[i][1]))
				}
				want = append(want, strings.Join(cells, ","))
				return
			}
			for _, row := range tables[k] {
				rows[k] = row
				walk(k+1, rows)
			}
		}
		walk(0, make([][2]int, n))

		e := New()
		require.NoError(t, e.Exec(ctx, ddl.String()))
		rows, err := e.Query(ctx, query)
		require.NoError(t, err, query)
		var got []string
		for rows.NextRow() {
			vals := make([]any, 2*n)
			ptrs := make([]any, 2*n)
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			require.NoError(t, rows.Scan(ptrs...))
			var cells []string
			for _, v := range vals {
				cells = append(cells, fmt.Sprint(v))
			}
			got = append(got, strings.Join(cells, ","))
		}
		require.NoError(t, rows.Err())
		require.NoError(t, e.Close())
		slices.Sort(want)
		slices.Sort(got)
		require.Equal(t, want, got, "seed %d: %s", seed, query)
	}
}
