package wsql

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
)

// Over a TIMESTAMP_LTZ rowtime, Flink types a window's start and end as
// TIMESTAMP(3) (wall-clock times in the session zone) and its rowtime as
// TIMESTAMP_LTZ(3), in every session zone. The planner's output type,
// DESCRIBE of a view, the Arrow type of the result batches and the docs
// must all say so.
func TestWindowBoundTypesOverLTZAgree(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/e.csv"
	require.NoError(t, os.WriteFile(path, []byte("1000,a\n70000,b\n"), 0o644))
	ddl := `CREATE TABLE e (ms BIGINT, k STRING, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '` + path + `', 'format' = 'csv');
CREATE VIEW g AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS ws, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS we,
  TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS wr FROM e GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
CREATE VIEW f AS SELECT window_start AS ws, window_end AS we, window_time AS wr
  FROM TABLE(TUMBLE(TABLE e, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, window_time;
`
	want := []string{"TIMESTAMP(3)", "TIMESTAMP(3)", "TIMESTAMP_LTZ(3)"}

	doc, err := os.ReadFile("docs/sql-reference.md")
	require.NoError(t, err)
	require.Contains(t, string(doc), "`*_START` and `*_END` are `TIMESTAMP(3)`", "the docs' type of window bounds")
	require.Contains(t, string(doc), "`window_start` and `window_end` (`TIMESTAMP(3)`)")

	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	for _, loc := range []*time.Location{time.UTC, shanghai} {
		for _, view := range []string{"g", "f"} {
			t.Run(loc.String()+"/"+view, func(t *testing.T) {
				e, mem := checkedEngine(t, WithLocalTimeZone(loc))
				defer mem.AssertSize(t, 0)
				ctx := context.Background()
				require.NoError(t, e.Exec(ctx, ddl))

				// DESCRIBE of the view
				rows, err := e.Query(ctx, "DESCRIBE "+view)
				require.NoError(t, err)
				var described []string
				for rows.Next() {
					rec := rows.RecordBatch()
					names, types := rec.Column(0).(*array.String), rec.Column(1).(*array.String)
					for i := range names.Len() {
						described = append(described, names.Value(i)+" "+types.Value(i))
					}
				}
				require.NoError(t, rows.Err())
				require.NoError(t, rows.Close())
				require.Equal(t, []string{"ws " + want[0], "we " + want[1], "wr " + want[2]}, described)

				// the planner's output schema and the Arrow type of the batches
				rows, err = e.Query(ctx, "SELECT * FROM "+view)
				require.NoError(t, err)
				planned := rows.Schema()
				batches := 0
				for rows.Next() {
					batches++
					rec := rows.RecordBatch()
					require.True(t, rec.Schema().Equal(planned), "batch schema %s, planned %s", rec.Schema(), planned)
				}
				require.NoError(t, rows.Err())
				require.NoError(t, rows.Close())
				require.Positive(t, batches)
				var got []string
				for _, f := range planned.Fields() {
					got = append(got, format.SQLTypeName(f.Type))
				}
				require.Equal(t, want, got, strings.Join(got, ", "))
			})
		}
	}
}
