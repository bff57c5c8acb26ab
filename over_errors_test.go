package wsql

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOverAggregateErrors pins the positioned refusals of OVER
// aggregations (Flink's messages where Flink has one): each query is
// planned after the clicks table and fails with the message given.
func TestOverAggregateErrors(t *testing.T) {
	const table = `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, n INT, d DECIMAL(10, 2), p AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
`
	for _, tc := range []struct{ query, want string }{
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY ts) AS s, COUNT(*) OVER (ORDER BY ts) AS c FROM clicks", "4:62: All aggregates must be computed on the same window."},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY n) FROM clicks", "4:52: OVER windows' ordering in stream mode must be defined on a time attribute"},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY ts DESC) FROM clicks", "4:52: The window can only be ordered in ASCENDING mode."},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY ts, n) FROM clicks", "4:56: The window can only be ordered by a single time column."},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr) FROM clicks", "4:13: OVER windows' ordering in stream mode must be defined on a time attribute: add ORDER BY ts"},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM clicks", "4:13: OVER windows end at CURRENT ROW in Flink"},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY ts RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) FROM clicks", "a RANGE frame over a time attribute takes a day-time INTERVAL"},
		{"SELECT usr, SUM(n) OVER (PARTITION BY UPPER(usr) ORDER BY ts) FROM clicks", "4:39: PARTITION BY of an OVER aggregation takes columns"},
		{"SELECT usr, LISTAGG(usr) OVER (PARTITION BY usr ORDER BY ts) FROM clicks", "4:13: LISTAGG OVER (...) is not supported yet"},
		{"SELECT usr, SUM(n) OVER x FROM clicks WINDOW w AS (PARTITION BY usr ORDER BY ts)", "4:13: window x is not defined: add WINDOW x AS (...) after FROM and WHERE; did you mean w?"},
		{"SELECT usr, SUM(n) OVER (w PARTITION BY usr) FROM clicks WINDOW w AS (ORDER BY ts)", "4:13: OVER (w PARTITION BY ...) cannot change the PARTITION BY of window w"},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY ts) FROM clicks GROUP BY usr, ts, n", "4:13: OVER aggregates cannot be combined with GROUP BY"},
		{"SELECT usr, SUM(n) OVER (PARTITION BY usr ORDER BY ts) + SUM(n) FROM clicks", "4:58: aggregate SUM needs an OVER clause here"},
		{"SELECT usr, SUM(n) FILTER (WHERE n > 1) OVER (PARTITION BY usr ORDER BY ts) FROM clicks", "4:20: FILTER is not supported on an OVER aggregate"},
		{"SELECT usr, SUM(c) OVER (PARTITION BY usr ORDER BY t) FROM (SELECT usr, COUNT(*) AS c, MAX(ts) AS t FROM clicks GROUP BY usr)", "4:52: OVER windows' ordering in stream mode must be defined on a time attribute"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			out := runScript(t, table+tc.query+";\n", 4096)
			first, _, _ := strings.Cut(out, "\n")
			require.Contains(t, first, "error: ", out)
			require.Contains(t, first, tc.want, out)
		})
	}
}
