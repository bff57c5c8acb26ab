package wsql

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestParallelMatchesSingleThreaded runs windowed queries over random data
// (disorder, late rows, many keys) with the window aggregation on one
// goroutine and partitioned over several, at several batch sizes: every
// key's results must be the same rows in the same order, and the run
// summaries the same.
func TestParallelMatchesSingleThreaded(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	dir := t.TempDir()
	var b strings.Builder
	base := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 3000 {
		ts := base.Add(time.Duration(i*40-r.IntN(3000)) * time.Millisecond)
		if r.IntN(50) == 0 {
			ts = ts.Add(-time.Duration(r.IntN(60)) * time.Second) // late, mostly
		}
		k := fmt.Sprintf("k%d", r.IntN(40))
		if r.IntN(30) == 0 {
			k = "" // NULL key
		}
		fmt.Fprintf(&b, "%s,%s,%d\n", ts.Format("2006-01-02 15:04:05.000"), k, r.IntN(100))
	}
	path := filepath.Join(dir, "events.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	ddl := fmt.Sprintf(`CREATE TABLE ev (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
		WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');`, path)
	queries := map[string]string{
		"tumble":   `SELECT k, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, COUNT(*) AS n, SUM(v) AS sv, MAX(v) AS mv FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)`,
		"hop":      `SELECT k, HOP_END(ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND) AS e, COUNT(*) AS n, AVG(v) AS a FROM ev GROUP BY k, HOP(ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND)`,
		"cumulate": `SELECT k, window_end AS e, COUNT(*) AS n FROM TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end`,
		"session":  `SELECT k, SESSION_START(ts, INTERVAL '1' SECOND) AS s, SESSION_END(ts, INTERVAL '1' SECOND) AS e, COUNT(*) AS n FROM ev GROUP BY k, SESSION(ts, INTERVAL '1' SECOND)`,
		"having":   `SELECT k, COUNT(DISTINCT v) AS d FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND) HAVING COUNT(*) > 3`,
		"late-fire": `SET 'table.exec.emit.allow-lateness' = '30 s'; SET 'table.exec.emit.late-fire.enabled' = 'true';
			SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, COUNT(*) AS n FROM ev GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND)`,
		"early-fire": `SET 'table.exec.emit.early-fire.enabled' = 'true';
			SELECT k, HOP_END(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS e, SUM(v) AS sv FROM ev GROUP BY k, HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)`,
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			want := runScript(t, ddl+q, 4096)
			require.NotContains(t, want, "error:")
			for _, n := range []int{2, 4} {
				for _, size := range []int{1, 7, 4096} {
					got := runScript(t, ddl+q, size, WithParallelism(n))
					require.Equal(t, perKey(want), perKey(got), "parallelism %d, batch size %d", n, size)
				}
			}
		})
	}
}

// perKey splits a script's output by key (the first column after the row
// kind of an update stream): each key's lines in order, plus every other
// line (headers, summaries) by itself.
func perKey(out string) map[string][]string {
	keys := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, ",")
		k := f[0]
		if len(f) > 1 && (k == "+I" || k == "-U" || k == "+U") {
			k = f[1]
		}
		if strings.HasPrefix(line, "-- ") || !strings.Contains(line, ",") {
			k = "other: " + line
		}
		keys[k] = append(keys[k], line)
	}
	return keys
}
