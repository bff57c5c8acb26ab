package wsql

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A query about to run is described to OnQueryStart with its number, text
// and plan, and its progress snapshots carry what a monitor shows: result
// rows, each split's watermark, the window state and the last checkpoint.
func TestQueryStartAndProgressForAMonitor(t *testing.T) {
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	var starts []QueryInfo
	var snaps []Progress
	var out bytes.Buffer
	e := New(WithBatchSize(1), WithCheckpointDir(t.TempDir()))
	err = e.Run(context.Background(), "SET 'execution.checkpointing.interval' = '1 ms';\n"+string(src), Output{
		NewWriter:    func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, time.UTC), nil },
		OnQueryStart: func(q QueryInfo) { starts = append(starts, q) },
		OnProgress: func(p Progress) {
			snaps = append(snaps, p)
			time.Sleep(2 * time.Millisecond) // a run long enough for checkpoints 1 ms apart
		},
		ProgressEvery: time.Nanosecond,
	})
	require.NoError(t, err)
	require.Len(t, starts, 1)
	require.Equal(t, 1, starts[0].Number)
	require.Contains(t, starts[0].SQL, "TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.Contains(t, starts[0].Plan, "clicks")
	require.Contains(t, starts[0].Plan, "Window")

	last := snaps[len(snaps)-1]
	require.Equal(t, int64(42), last.RowsRead)
	require.Positive(t, last.ResultRows)
	require.Len(t, last.Splits, 1, "one file, one split")
	require.Equal(t, last.Watermark, last.Splits[0].Watermark)
	require.True(t, last.HasOpenWindows)
	require.True(t, last.HasStateBytes)
	require.Positive(t, last.StateBytes)
	require.Empty(t, last.Lags, "a file knows no lag")
	require.NotNil(t, last.Checkpoint)
	require.Positive(t, last.Checkpoint.ID)
	require.Positive(t, last.Checkpoint.Bytes)
	require.False(t, last.Checkpoint.Done.IsZero())
	require.Nil(t, snaps[0].Checkpoint, "none before the first checkpoint")
}

// A plain SELECT has no windows and measures no state: the snapshot says
// so rather than reporting zeros.
func TestProgressLeavesOutWhatAQueryDoesNotHave(t *testing.T) {
	var snaps []Progress
	var out bytes.Buffer
	e := New(WithBatchSize(1))
	err := e.Run(context.Background(), `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SELECT usr FROM clicks WHERE amount > 1;`, Output{
		NewWriter:     func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, time.UTC), nil },
		OnProgress:    func(p Progress) { snaps = append(snaps, p) },
		ProgressEvery: time.Nanosecond,
	})
	require.NoError(t, err)
	last := snaps[len(snaps)-1]
	require.False(t, last.HasOpenWindows)
	require.False(t, last.HasStateBytes)
	require.Empty(t, last.Splits, "no event time")
	require.Nil(t, last.Checkpoint)
}

// A run that fails ends with one more call, holding only the error; the
// snapshots before it have none.
func TestProgressEndsWithTheErrorOfAFailedRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.csv")
	require.NoError(t, os.WriteFile(path, []byte("1\n2\nthree\n"), 0o644))
	var snaps []Progress
	var out bytes.Buffer
	err := New(WithBatchSize(1)).Run(context.Background(), `CREATE TABLE t (n INT)
WITH ('connector' = 'filesystem', 'path' = '`+path+`', 'format' = 'csv');
SELECT n FROM t;`, Output{
		NewWriter:     func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, time.UTC), nil },
		OnProgress:    func(p Progress) { snaps = append(snaps, p) },
		ProgressEvery: time.Nanosecond,
	})
	require.ErrorContains(t, err, "three")
	last := snaps[len(snaps)-1]
	require.Equal(t, err.Error(), last.Err.Error())
	require.Zero(t, last.RowsRead, "the error alone")
	for _, p := range snaps[:len(snaps)-1] {
		require.NoError(t, p.Err)
	}
}

// A statement set starts as one query: its INSERTs and the set's plan.
func TestQueryStartOfAStatementSet(t *testing.T) {
	var starts []QueryInfo
	err := New().Run(context.Background(), `CREATE TABLE g (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10');
CREATE TABLE a (n BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE b (n BIGINT) WITH ('connector' = 'blackhole');
EXECUTE STATEMENT SET BEGIN
INSERT INTO a SELECT n FROM g;
INSERT INTO b SELECT n FROM g WHERE n > 0;
END;`, Output{OnQueryStart: func(q QueryInfo) { starts = append(starts, q) }})
	require.NoError(t, err)
	require.Len(t, starts, 1)
	require.Equal(t, "EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT n FROM g; INSERT INTO b SELECT n FROM g WHERE n > 0; END", starts[0].SQL)
	require.Contains(t, starts[0].Plan, "Sink(table=[a]")
	require.Contains(t, starts[0].Plan, "Sink(table=[b]")
}

// A UNION ALL's snapshots have the watermark the union forwards and the
// windows after it.
func TestProgressOfAUnion(t *testing.T) {
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	ddl := string(src)[:strings.Index(string(src), "SELECT")]
	var snaps []Progress
	var out bytes.Buffer
	err = New(WithBatchSize(1)).Run(context.Background(), ddl+strings.ReplaceAll(ddl, "TABLE clicks", "TABLE more")+
		`SELECT usr, COUNT(*) AS n FROM (SELECT * FROM clicks UNION ALL SELECT * FROM more) GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`, Output{
		NewWriter:     func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, time.UTC), nil },
		OnProgress:    func(p Progress) { snaps = append(snaps, p) },
		ProgressEvery: time.Nanosecond,
	})
	require.NoError(t, err)
	last := snaps[len(snaps)-1]
	require.Greater(t, last.Watermark, snaps[0].Watermark)
	require.Greater(t, last.Watermark, int64(-1<<62), "a watermark")
	require.True(t, last.HasOpenWindows)
	require.Empty(t, last.Splits, "each input has its own splits")
}
