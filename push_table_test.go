package wsql_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/internal/arrowtest"
)

var t0 = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)

// nextBatch waits for the query's next batch as CSV lines; a window that
// should have fired and did not fails the test instead of hanging it.
func nextBatch(t *testing.T, rows *wsql.Rows) string {
	t.Helper()
	got := make(chan bool, 1)
	go func() { got <- rows.Next() }()
	select {
	case ok := <-got:
		require.True(t, ok, "the query ended: %v", rows.Err())
	case <-time.After(10 * time.Second):
		t.Fatal("no window fired")
	}
	var sb strings.Builder
	w := wsql.NewCSVWriter(&sb, rows.Schema(), time.UTC)
	require.NoError(t, w.WriteBatch(rows.RecordBatch()))
	require.NoError(t, w.Close())
	_, body, _ := strings.Cut(sb.String(), "\n") // without the header
	return body
}

func TestPushTableSplitsHoldTheWatermarkUntilIdle(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	events, err := e.CreatePushTable(ctx, `CREATE TABLE events (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)`)
	require.NoError(t, err)
	slow := events.AddSplit()
	rows, err := e.Query(ctx, `SELECT k, TUMBLE_END(ts, INTERVAL '10' SECOND) AS wend, COUNT(*) AS n
		FROM events GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND)`)
	require.NoError(t, err)
	defer rows.Close()

	require.NoError(t, events.AppendRow(ctx, t0.Add(time.Second), "a"))
	require.NoError(t, slow.AppendRow(ctx, t0.Add(2*time.Second), "b"))
	require.NoError(t, events.AppendRow(ctx, t0.Add(15*time.Second), "a"))
	// The slow split's watermark (2 s) holds the window [0 s, 10 s) open
	// until it says it is idle.
	require.NoError(t, slow.MarkIdle())
	require.Equal(t, "a,2024-03-01 09:00:10.000,1\nb,2024-03-01 09:00:10.000,1\n", nextBatch(t, rows))

	// Rows bring the idle split back; a row behind the watermark is late.
	require.NoError(t, slow.AppendRow(ctx, t0.Add(3*time.Second), "b"))
	require.NoError(t, slow.AppendRow(ctx, t0.Add(19*time.Second), "b"))
	require.NoError(t, events.AppendRow(ctx, t0.Add(25*time.Second), "a"))
	// The table's watermark is min(19 s, 25 s): [10 s, 20 s) closes when
	// the slow split ends.
	require.NoError(t, slow.Close())
	require.Equal(t, "a,2024-03-01 09:00:20.000,1\nb,2024-03-01 09:00:20.000,1\n", nextBatch(t, rows))
	require.NoError(t, events.Close())
	require.Equal(t, "a,2024-03-01 09:00:30.000,1\n", nextBatch(t, rows))
	require.False(t, rows.Next())
	require.NoError(t, rows.Err())
	require.Equal(t, "6 rows read, 1 late rows dropped, 0 bad rows skipped, 5 result rows", rows.Summary().Counts())
	require.ErrorIs(t, events.AppendRow(ctx, t0, "a"), wsql.ErrPushClosed)
}

func TestPushTableSourceWatermarkPerSplit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem), wsql.WithBatchSize(1))
	defer e.Close()
	events, err := e.CreatePushTable(ctx, `CREATE TABLE events (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS SOURCE_WATERMARK())`)
	require.NoError(t, err)
	other := events.AddSplit()
	rows, err := e.Query(ctx, `SELECT k, COUNT(*) AS n FROM events GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND)`)
	require.NoError(t, err)
	defer rows.Close()

	// rows do not move a source watermark: only AdvanceWatermark does
	require.NoError(t, events.AppendRow(ctx, t0.Add(time.Second), "a"))
	require.NoError(t, events.AppendRow(ctx, t0.Add(30*time.Second), "a"))
	require.NoError(t, other.AppendRow(ctx, t0.Add(2*time.Second), "b"))
	require.NoError(t, events.AdvanceWatermark(t0.Add(20*time.Second)))
	require.NoError(t, other.AdvanceWatermark(t0.Add(10*time.Second))) // the minimum: [0, 10) closes
	require.Equal(t, "a,1\nb,1\n", nextBatch(t, rows))
	require.NoError(t, other.AppendRow(ctx, t0.Add(5*time.Second), "late"))
	require.NoError(t, events.Close())
	require.Equal(t, "a,1\n", nextBatch(t, rows))
	require.False(t, rows.Next())
	require.Equal(t, "4 rows read, 1 late rows dropped, 0 bad rows skipped, 3 result rows", rows.Summary().Counts())
}

func TestGoTablesErrors(t *testing.T) {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()

	ddl := `CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen')`
	_, err := e.CreatePushTable(ctx, ddl)
	require.Equal(t, "error: 1:64: the Go program is the connector of this table: leave out the 'connector' option\n"+
		ddl+"\n"+strings.Repeat(" ", 63)+"^", wsql.FormatError(ddl, err))

	_, err = e.CreatePushTable(ctx, `SELECT 1`)
	require.ErrorContains(t, err, "a table registered from Go is declared by CREATE TABLE")

	pushed, err := e.CreatePushTable(ctx, `CREATE TABLE pushed (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)`)
	require.NoError(t, err)
	require.EqualError(t, pushed.AdvanceWatermark(t0), "wsql: table pushed computes its watermark from its rows; declare `WATERMARK FOR ts AS SOURCE_WATERMARK()` to state it with AdvanceWatermark")
	err = pushed.AppendRow(ctx, "09:00")
	require.EqualError(t, err, "wsql: pushing to table pushed: column ts is TIMESTAMP(3) and cannot take the Go value 09:00 (string)")

	src := `CREATE TABLE f (ts TIMESTAMP(3), WATERMARK FOR ts AS SOURCE_WATERMARK())
		WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
		SELECT COUNT(*) FROM f GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)`
	_, err = e.Query(ctx, src)
	require.Equal(t, "error: 1:54: SOURCE_WATERMARK() needs a source that supplies watermarks: a table whose rows a Go program pushes (Engine.CreatePushTable)\n"+
		"CREATE TABLE f (ts TIMESTAMP(3), WATERMARK FOR ts AS SOURCE_WATERMARK())\n"+strings.Repeat(" ", 53)+"^", wsql.FormatError(src, err))
}

// A pushed row is refused, naming the table and column, where the CSV and
// JSON decoders refuse the same value: NaN for a DECIMAL, a FLOAT out of
// range, invalid UTF-8. Before, they went in as a garbage DECIMAL, +Inf and
// the raw bytes. A batch read from an array.RecordReader is checked too.
func TestPushTableRefusesWhatTheDecodersRefuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	pushed, err := e.CreatePushTable(ctx, `CREATE TABLE pushed (ts TIMESTAMP(3), price DECIMAL(10, 2), ratio FLOAT, name STRING)`)
	require.NoError(t, err)
	defer pushed.Close()
	require.EqualError(t, pushed.AppendRow(ctx, t0, math.NaN(), nil, nil),
		"wsql: pushing to table pushed: column price is DECIMAL(10, 2) and cannot take NaN: a DECIMAL has no NaN or infinity")
	require.EqualError(t, pushed.AppendRow(ctx, t0, nil, 1e300, nil),
		"wsql: pushing to table pushed: column ratio is FLOAT and 1e+300 is out of its range; declare it DOUBLE")
	require.EqualError(t, pushed.AppendRow(ctx, t0, nil, nil, "caf\xe9"),
		`wsql: pushing to table pushed: column name is STRING and "caf\xe9" is not valid UTF-8`)
	require.EqualError(t, pushed.AppendMap(ctx, map[string]any{"ts": t0, "name": []byte{0xff}}),
		`wsql: pushing to table pushed: column name is STRING and "\xff" is not valid UTF-8`)

	schema := arrow.NewSchema([]arrow.Field{{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := arrowtest.Record(t, mem, schema, []any{"ok"}, []any{"caf\xe9"})
	rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	rec.Release()
	require.NoError(t, err)
	defer rr.Release()
	require.NoError(t, e.CreateRecordReaderTable(ctx, `CREATE TABLE fromArrow (name STRING)`, rr))
	rows, err := e.Query(ctx, `SELECT name FROM fromArrow`)
	require.NoError(t, err)
	for _, err = range rows.All() {
		if err != nil {
			break
		}
	}
	require.ErrorContains(t, err, "array.RecordReader, batch 1: column name is STRING and row 2 of the batch is not valid UTF-8")
}
