package nexmarkcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNexmarkGoldensMatchDuckDB exports the suite's events with wsql, and
// for each query file of testdata/nexmark whose golden runs, compares the
// golden's materialised changelog with DuckDB's result of the reference:
// the same multiset of rows. A golden that ends in an error is a query
// wsql does not run yet, skipped; so is a query a batch engine cannot
// check (reference/*.sql says why). The test's log lists every query's
// status.
func TestNexmarkGoldensMatchDuckDB(t *testing.T) {
	ddl, err := os.ReadFile(filepath.Join(suiteDir, "ddl.sql"))
	require.NoError(t, err)
	// reference/setup.sql computes which events are behind this watermark
	require.Contains(t, string(ddl), "WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND",
		"ddl.sql's watermark changed: change the one reference/setup.sql computes")

	db := openDuckDB(t, exportEvents(t))
	var events, behind int
	require.NoError(t, db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE behind) FROM events`).Scan(&events, &behind))
	t.Logf("%d events, %d at or behind the watermark when they arrive", events, behind)

	queries, err := filepath.Glob(filepath.Join(suiteDir, "q*.sql"))
	require.NoError(t, err)
	require.Len(t, queries, 27, "q0 to q22, and the TVF forms of q5, q7, q8 and q12")
	status := map[string]string{}
	for _, path := range queries {
		name := strings.TrimSuffix(filepath.Base(path), ".sql")
		t.Run(name, func(t *testing.T) {
			ref := readReference(t, filepath.Join("reference", name+".sql"))
			text, err := os.ReadFile(strings.TrimSuffix(path, ".sql") + ".out")
			require.NoError(t, err)
			g := parseGolden(string(text))
			// every reference runs, so none rots while its query does not
			var want multiset
			if ref.hasQuery() {
				want, err = queryRows(db, ref.sql)
				require.NoError(t, err, "reference/%s.sql", name)
			}
			switch {
			case g.err != "":
				status[name] = "not running yet: " + g.err
				t.Skip(status[name])
			case ref.notComparable != "":
				status[name] = "not comparable: " + ref.notComparable
				t.Skip(status[name])
			case ref.eventTime && behind > 0:
				status[name] = fmt.Sprintf("not comparable: %d events arrive behind the watermark, and a stream drops what is late for its windows", behind)
				t.Skip(status[name])
			}
			require.Empty(t, g.broken, "the golden's changelog")
			// no event is behind the watermark, or the query has no
			// event-time operator: nothing can be late
			require.Zero(t, g.late, "late rows dropped by the golden, where none can be late")
			if d := diff(g.rows, want, 20); d != "" {
				status[name] = "MISMATCH"
				t.Fatalf("%s.out materialises to %d rows, DuckDB's result has %d\n%s", name, count(g.rows), count(want), d)
			}
			status[name] = fmt.Sprintf("matches (%d rows)", count(want))
		})
	}
	var b strings.Builder
	for _, path := range queries {
		if name := strings.TrimSuffix(filepath.Base(path), ".sql"); status[name] != "" {
			fmt.Fprintf(&b, "\n%-8s %s", name, status[name])
		}
	}
	t.Log("status per query:" + b.String())
}
