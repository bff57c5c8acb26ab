package wsql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"
)

// withFunction registers f on the engine as it is made.
func withFunction(t *testing.T, name string, f Function) Option {
	return func(e *Engine) { require.NoError(t, e.RegisterFunction(name, f)) }
}

// gobSum is a sum whose accumulator AggregateFunc saves with gob.
type gobSum struct{ Total int64 }

func userSum() *AggregateFunction {
	return AggregateFunc(func() gobSum { return gobSum{} },
		func(a *gobSum, v int64) { a.Total += v },
		func(a *gobSum, o gobSum) { a.Total += o.Total },
		func(a gobSum) int64 { return a.Total })
}

// lastKey keeps the last key of a window; it has no MarshalBinary.
type lastKey struct{ k string }

func (a *lastKey) Accumulate(arg arrow.Array, rows []int) error {
	a.k = arg.(*array.String).Value(rows[len(rows)-1])
	return nil
}
func (a *lastKey) Merge(o Accumulator) error { a.k = o.(*lastKey).k; return nil }
func (a *lastKey) AppendValue(b array.Builder) error {
	b.(*array.StringBuilder).Append(a.k)
	return nil
}

// A query with a user aggregate stopped part way resumes from its
// checkpoint and writes what one uninterrupted run writes: the
// accumulators were saved and restored.
func TestUserAggregateResumesFromACheckpoint(t *testing.T) {
	var rows []string
	for i := range 300 {
		ms := int64(i)*137 + int64(i%7)*311
		rows = append(rows, time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")+fmt.Sprintf(",k%d,%d,%d", i%5, i%11, i))
	}
	script := `CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/in', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
CREATE TABLE results (k STRING, wend TIMESTAMP(3), total BIGINT, check_total BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');
INSERT INTO results SELECT k, HOP_END(ts, INTERVAL '2' SECOND, INTERVAL '6' SECOND), USER_SUM(w), SUM(w)
FROM events GROUP BY k, HOP(ts, INTERVAL '2' SECOND, INTERVAL '6' SECOND);
`
	runUntil := func(dir string, n int64) []string {
		notices, err := runCheckpointedUntil(t, dir, script, n, WithBatchSize(16), withFunction(t, "user_sum", userSum()))
		require.ErrorIs(t, err, context.Canceled)
		return notices
	}
	write := func(dir string, lines []string, flag int) {
		f, err := os.OpenFile(filepath.Join(dir, "in", "events.csv"), flag|os.O_WRONLY, 0o644)
		require.NoError(t, err)
		_, err = f.WriteString(strings.Join(lines, "\n") + "\n")
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
	ref := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(ref, "in"), 0o755))
	write(ref, rows, os.O_CREATE)
	runUntil(ref, 300)
	want := partFiles(t, ref)
	require.NotEmpty(t, want)
	for _, l := range strings.Split(strings.TrimSpace(want), "\n") {
		f := strings.Split(l, ",")
		require.Equal(t, f[3], f[2], l)
	}

	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "in"), 0o755))
	write(dir, rows[:120], os.O_CREATE)
	notices := runUntil(dir, 120)
	require.Regexp(t, `stopped; checkpoint \d+ is in`, strings.Join(notices, "\n"))
	write(dir, rows[120:], os.O_APPEND)
	notices = runUntil(dir, 300)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	require.Equal(t, want, partFiles(t, dir))
}

// An aggregate whose accumulators cannot be saved is refused before a
// checkpointed query starts, naming the function and what it lacks.
func TestUserAggregateWithoutMarshalingRefusesCheckpoints(t *testing.T) {
	last := &AggregateFunction{Arg: arrow.BinaryTypes.String, Result: arrow.BinaryTypes.String,
		NewAccumulator: func() Accumulator { return &lastKey{} }}
	// gob cannot save an accumulator value without exported fields
	unsaved := AggregateFunc(func() struct{ n int64 } { return struct{ n int64 }{} },
		func(a *struct{ n int64 }, v int64) { a.n += v },
		func(a *struct{ n int64 }, o struct{ n int64 }) { a.n += o.n },
		func(a struct{ n int64 }) int64 { return a.n })
	for name, f := range map[string]*AggregateFunction{"LAST_KEY": last, "UNSAVED": unsaved} {
		arg := map[string]string{"LAST_KEY": "k", "UNSAVED": "w"}[name]
		script := strings.Replace(checkpointScript, "SUM(w)", name+"("+arg+")", 1)
		if name == "LAST_KEY" {
			script = strings.Replace(script, "total BIGINT", "total STRING", 1)
		}
		_, err := runCheckpointed(t, t.TempDir(), script, withFunction(t, name, f))
		require.EqualError(t, err, name+"("+arg+") cannot run with checkpoints ('execution.checkpointing.dir' is set): the accumulator of function "+name+
			" does not implement encoding.BinaryMarshaler and encoding.BinaryUnmarshaler, which save and restore it")
	}
	// without checkpoints it runs
	e := New(withFunction(t, "last_key", last))
	defer e.Close()
	require.NoError(t, e.Exec(context.Background(), sinkEventsDDL))
	got, err := e.Query(context.Background(), "SELECT LAST_KEY(k) FROM events GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)")
	require.NoError(t, err)
	var n int
	for got.Next() {
		n += int(got.RecordBatch().NumRows())
	}
	require.NoError(t, got.Err())
	require.Positive(t, n)
}
