package wsql

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/leakcheck"
)

// an unbounded stream: datagen without number-of-rows never ends
const endlessDDL = `CREATE TABLE g (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '0');`

func checkedEngine(t *testing.T, opts ...Option) (*Engine, *memory.CheckedAllocator) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	return New(append([]Option{WithAllocator(mem)}, opts...)...), mem
}

func TestQueryExampleMatchesGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/examples/clicks.out")
	require.NoError(t, err)
	for _, size := range []int{1, 4096} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			e, mem := checkedEngine(t, WithBatchSize(size))
			defer mem.AssertSize(t, 0)
			rows, err := e.Query(context.Background(), string(src))
			require.NoError(t, err)
			require.Equal(t, []string{"usr", "wstart", "wend", "n", "total"}, schemaNames(rows.Schema()))
			var out bytes.Buffer
			w := NewCSVWriter(&out, rows.Schema(), time.UTC)
			batches := 0
			for rows.Next() {
				batches++
				require.NoError(t, w.WriteBatch(rows.RecordBatch()))
			}
			require.NoError(t, w.Close())
			require.NoError(t, rows.Err())
			require.Positive(t, batches)
			fmt.Fprintf(&out, "-- %s\n", rows.Summary().Counts())
			require.Equal(t, string(want), out.String())
			require.NoError(t, rows.Close())
			require.NoError(t, rows.Close(), "Close is idempotent")
			require.False(t, rows.Next())
			require.Equal(t, int64(42), rows.Summary().RowsRead)
		})
	}
}

func schemaNames(s *Schema) []string {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
	}
	return names
}

func TestQueryRetainedBatchOutlivesNext(t *testing.T) {
	e, mem := checkedEngine(t, WithBatchSize(1))
	defer mem.AssertSize(t, 0)
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	rows, err := e.Query(context.Background(), string(src))
	require.NoError(t, err)
	var kept []RecordBatch
	for rows.Next() {
		b := rows.RecordBatch()
		b.Retain()
		kept = append(kept, b)
	}
	require.NoError(t, rows.Close())
	var n int64
	for _, b := range kept {
		n += b.NumRows()
		b.Release()
	}
	require.Equal(t, int64(10), n)
}

func TestQueryCloseMidStream(t *testing.T) {
	for name, ddl := range map[string]string{
		"unpaced": endlessDDL,
		"paced":   `CREATE TABLE g (x INT) WITH ('connector' = 'datagen');`, // 10000 rows a second
	} {
		t.Run(name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			e, mem := checkedEngine(t, WithBatchSize(64))
			rows, err := e.Query(context.Background(), ddl+"SELECT x FROM g")
			require.NoError(t, err)
			for i := 0; i < 3; i++ {
				require.True(t, rows.Next())
				require.Equal(t, int64(64), rows.RecordBatch().NumRows())
			}
			start := time.Now()
			require.NoError(t, rows.Close(), "stopping by Close is no error")
			require.Less(t, time.Since(start), 2*time.Second)
			require.NoError(t, rows.Err())
			require.False(t, rows.Next())
			require.Nil(t, rows.RecordBatch())
			require.GreaterOrEqual(t, rows.Summary().RowsRead, int64(3*64))
			mem.AssertSize(t, 0)
			leakcheck.Goroutines(t, before)

			// the engine is free again
			require.NoError(t, e.Exec(context.Background(), "DROP TABLE g"))
		})
	}
}

func TestQueryCloseWithoutReading(t *testing.T) {
	before := runtime.NumGoroutine()
	e, mem := checkedEngine(t)
	rows, err := e.Query(context.Background(), endlessDDL+"SELECT x FROM g")
	require.NoError(t, err)
	time.Sleep(20 * time.Millisecond) // the query waits with a batch nobody takes
	require.NoError(t, rows.Close())
	mem.AssertSize(t, 0)
	leakcheck.Goroutines(t, before)
}

func TestQueryContextCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	e, mem := checkedEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := e.Query(ctx, endlessDDL+"SELECT x FROM g")
	require.NoError(t, err)
	require.True(t, rows.Next())
	cancel()
	deadline := time.After(5 * time.Second)
	for rows.Next() {
		select {
		case <-deadline:
			t.Fatal("the query went on after its context was cancelled")
		default:
		}
	}
	require.ErrorIs(t, rows.Err(), context.Canceled)
	require.ErrorIs(t, rows.Close(), context.Canceled)
	mem.AssertSize(t, 0)
	leakcheck.Goroutines(t, before)
}

func TestQueryContextCancelledBeforeStart(t *testing.T) {
	e, mem := checkedEngine(t)
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows, err := e.Query(ctx, endlessDDL+"SELECT x FROM g")
	if err != nil {
		require.ErrorIs(t, err, context.Canceled)
		return
	}
	for rows.Next() {
	}
	require.ErrorIs(t, rows.Err(), context.Canceled)
	require.ErrorIs(t, rows.Close(), context.Canceled)
}

func TestQueryIterator(t *testing.T) {
	src, err := os.ReadFile("testdata/examples/clicks.sql")
	require.NoError(t, err)
	e, mem := checkedEngine(t, WithBatchSize(3))
	defer mem.AssertSize(t, 0)
	rows, err := e.Query(context.Background(), string(src))
	require.NoError(t, err)
	var n int64
	for b, err := range rows.All() {
		require.NoError(t, err)
		n += b.NumRows()
	}
	require.Equal(t, int64(10), n)
	require.Equal(t, int64(10), rows.Summary().ResultRows)
	require.Equal(t, int64(2), rows.Summary().LateRowsDropped)
	require.NoError(t, rows.Close(), "All closed it already")
}

func TestQueryIteratorBreak(t *testing.T) {
	before := runtime.NumGoroutine()
	e, mem := checkedEngine(t, WithBatchSize(16))
	rows, err := e.Query(context.Background(), endlessDDL+"SELECT x FROM g")
	require.NoError(t, err)
	seen := 0
	for b, err := range rows.All() {
		require.NoError(t, err)
		require.Equal(t, int64(16), b.NumRows())
		if seen++; seen == 5 {
			break
		}
	}
	require.Equal(t, 5, seen)
	require.NoError(t, rows.Err())
	mem.AssertSize(t, 0)
	leakcheck.Goroutines(t, before)
}

func TestQueryIteratorYieldsError(t *testing.T) {
	e, mem := checkedEngine(t)
	defer mem.AssertSize(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := e.Query(ctx, endlessDDL+"SELECT x FROM g")
	require.NoError(t, err)
	var last error
	i := 0
	for b, err := range rows.All() {
		if err != nil {
			require.Nil(t, b)
			last = err
			continue
		}
		if i++; i == 2 {
			cancel()
		}
	}
	require.ErrorIs(t, last, context.Canceled)
}

func TestExecThenQuery(t *testing.T) {
	e, mem := checkedEngine(t)
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	require.NoError(t, e.Exec(ctx, `CREATE TABLE g (k INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '100',
		'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '100');
		SET 'table.local-time-zone' = 'UTC';`))
	require.Equal(t, []string{"g"}, e.TableNames())

	rows, err := e.Query(ctx, "SELECT k FROM g WHERE k > 90")
	require.NoError(t, err)
	var out bytes.Buffer
	w := NewCSVWriter(&out, rows.Schema(), time.UTC)
	for b, err := range rows.All() {
		require.NoError(t, err)
		require.NoError(t, w.WriteBatch(b))
	}
	require.NoError(t, w.Close())
	require.Equal(t, "k\n91\n92\n93\n94\n95\n96\n97\n98\n99\n100\n", out.String())
	require.Equal(t, int64(100), rows.Summary().RowsRead)
	require.Equal(t, int64(10), rows.Summary().ResultRows)

	// a query with no rows still has its schema
	rows, err = e.Query(ctx, "SELECT k, v FROM g WHERE k > 1000")
	require.NoError(t, err)
	require.Equal(t, []string{"k", "v"}, schemaNames(rows.Schema()))
	require.False(t, rows.Next())
	require.NoError(t, rows.Close())

	// SHOW has rows too
	rows, err = e.Query(ctx, "SHOW TABLES")
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.Equal(t, int64(1), rows.RecordBatch().NumRows())
	require.NoError(t, rows.Close())
}

func TestQueryAndExecErrors(t *testing.T) {
	e, mem := checkedEngine(t)
	defer mem.AssertSize(t, 0)
	ctx := context.Background()

	src := "SELECT x\nFROM g WHERE"
	_, err := e.Query(ctx, src)
	require.Error(t, err)
	msg := FormatError(src, err)
	assert.Contains(t, msg, "2:")
	assert.Contains(t, msg, "^")

	src = "SELECT x FROM nowhere"
	_, err = e.Query(ctx, src)
	require.Error(t, err)
	assert.Contains(t, FormatError(src, err), "^", "a planning error has a position")

	_, err = e.Query(ctx, endlessDDL)
	require.ErrorContains(t, err, "use Exec")
	require.Empty(t, e.TableNames(), "nothing ran")

	src = endlessDDL + "SELECT x FROM g;\nSELECT x FROM g"
	_, err = e.Query(ctx, src)
	require.ErrorContains(t, err, "second")
	assert.Contains(t, FormatError(src, err), "2:1")

	src = endlessDDL + "\nSELECT x FROM g"
	err = e.Exec(ctx, src)
	require.ErrorContains(t, err, "use Query")
	assert.Contains(t, FormatError(src, err), "2:1")
	require.Empty(t, e.TableNames(), "nothing ran")

	err = e.Exec(ctx, "DROP TABLE nowhere")
	require.Error(t, err)

	// the engine still works after the errors
	require.NoError(t, e.Exec(ctx, endlessDDL))
	rows, err := e.Query(ctx, "SELECT x FROM g")
	require.NoError(t, err)
	require.True(t, rows.Next())
	require.NoError(t, rows.Close())
	require.True(t, strings.Contains(strings.Join(e.TableNames(), ","), "g"))
}

// A streaming query holds no lock on the engine: Exec and a second Query
// run while the first is open.
func TestQueryDoesNotBlockTheEngine(t *testing.T) {
	e := New()
	require.NoError(t, e.Exec(context.Background(), `CREATE TABLE g (x INT) WITH ('connector' = 'datagen')`))
	rows, err := e.Query(context.Background(), `SELECT x FROM g`)
	require.NoError(t, err)
	defer rows.Close()
	require.True(t, rows.Next())
	done := make(chan error, 1)
	go func() {
		done <- e.Exec(context.Background(), `CREATE TABLE h (y INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')`)
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Exec blocked behind an open query")
	}
	other, err := e.Query(context.Background(), `SELECT y FROM h`)
	require.NoError(t, err)
	n := 0
	for b, err := range other.All() {
		require.NoError(t, err)
		n += int(b.NumRows())
	}
	require.Equal(t, 3, n)
	require.NoError(t, rows.Close())
}
