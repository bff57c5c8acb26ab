package wsql

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSessionTVFEqualsGroupWindow runs random inputs through the SESSION
// window table function (with PARTITION BY k, and without keys) and
// through the group window GROUP BY k, SESSION(ts, gap): the results,
// summaries included, must be the same rows, whatever the batch size and
// parallelism.
func TestSessionTVFEqualsGroupWindow(t *testing.T) {
	r := rand.New(rand.NewSource(18))
	dir := t.TempDir()
	for round := 0; round < 40; round++ {
		path := filepath.Join(dir, fmt.Sprintf("r%d.csv", round))
		var rows strings.Builder
		base := int64(5000) // no row before 1970
		for i, n := 0, 1+r.Intn(60); i < n; i++ {
			base += int64(r.Intn(1500))
			// out of order, some late; v NULL unless set
			ts := base - int64(r.Intn(4000))
			v := ""
			if r.Intn(5) > 0 {
				v = fmt.Sprint(r.Intn(100) - 20)
			}
			fmt.Fprintf(&rows, "%s,%c,%s\n", fmtMillis(ts), 'a'+rune(r.Intn(3)), v)
		}
		require.NoError(t, os.WriteFile(path, []byte(rows.String()), 0o644))
		gap := []string{"'0.5'", "'1'", "'2'", "'3.5'"}[r.Intn(4)]
		ddl := fmt.Sprintf(`CREATE TABLE e (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '%.3f' SECOND)
WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');
`, float64(r.Intn(3000))/1000, filepath.ToSlash(path))
		aggs := "COUNT(*) AS n, COUNT(v) AS nv, SUM(v) AS sv, MIN(v) AS lo, MAX(v) AS hi"
		pairs := [][2]string{
			{
				"SELECT k, window_start, window_end, window_time, " + aggs + " FROM TABLE(SESSION(TABLE e PARTITION BY k, DESCRIPTOR(ts), INTERVAL " + gap + " SECOND)) GROUP BY k, window_start, window_end",
				"SELECT k, SESSION_START(ts, INTERVAL " + gap + " SECOND), SESSION_END(ts, INTERVAL " + gap + " SECOND), SESSION_ROWTIME(ts, INTERVAL " + gap + " SECOND), " + aggs + " FROM e GROUP BY k, SESSION(ts, INTERVAL " + gap + " SECOND)",
			},
			{
				"SELECT window_start, window_end, " + aggs + " FROM TABLE(SESSION(TABLE e, DESCRIPTOR(ts), INTERVAL " + gap + " SECOND)) GROUP BY window_start, window_end",
				"SELECT SESSION_START(ts, INTERVAL " + gap + " SECOND), SESSION_END(ts, INTERVAL " + gap + " SECOND), " + aggs + " FROM e GROUP BY SESSION(ts, INTERVAL " + gap + " SECOND)",
			},
		}
		batch := []int{1, 2, 3, 7, 4096}[r.Intn(5)]
		var opts []Option
		if r.Intn(2) == 1 {
			opts = append(opts, WithParallelism(3))
		}
		for _, p := range pairs {
			tvf := rowsOf(runScript(t, ddl+p[0]+";\n", batch, opts...))
			legacy := rowsOf(runScript(t, ddl+p[1]+";\n", batch, opts...))
			require.NotContains(t, strings.Join(tvf, "\n"), "error", p[0])
			require.Greater(t, len(tvf), 1, "no result rows")
			require.Equal(t, legacy, tvf, "round %d, batch size %d:\n%s\n%s\n%s", round, batch, ddl, p[0], rows.String())
		}
	}
}

// rowsOf is a result's lines without the header (whose names differ),
// sorted: parallel runs emit keys in another order.
func rowsOf(out string) []string {
	lines := sortedLines(out)
	for i, l := range lines {
		if strings.HasPrefix(l, "k,") || strings.HasPrefix(l, "window_start,") || strings.HasPrefix(l, "EXPR$0,") {
			return append(lines[:i:i], lines[i+1:]...)
		}
	}
	return lines
}

func fmtMillis(ms int64) string {
	return fmt.Sprintf("1970-01-01 00:%02d:%02d.%03d", ms/60000, ms/1000%60, ms%1000)
}
