package wsql_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/internal/leakcheck"
)

// stopWait is how long a cancelled query may take to return: generous, for
// a loaded machine; a query that ignores the cancellation never returns.
const stopWait = 5 * time.Second

// intsWriter sends the values of the first column (INT) of the results.
type intsWriter struct{ got chan<- int32 }

func (w intsWriter) WriteBatch(rec wsql.RecordBatch) error {
	col := rec.Column(0).(*array.Int32)
	for i := range col.Len() {
		w.got <- col.Value(i)
	}
	return nil
}

func (intsWriter) Close() error { return nil }

// runUntil runs query, cancels its context once it has written the result
// last, and returns its summary; the run must end with the cancellation
// within stopWait. If it does not, unblock ends its source (so the test
// fails rather than hangs).
func runUntil(t *testing.T, e *wsql.Engine, query string, last int32, unblock func()) wsql.Summary {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan int32, 100)
	var summary wsql.Summary
	done := make(chan error, 1)
	go func() {
		done <- e.Run(ctx, query, wsql.Output{
			NewWriter: func(wsql.ResultInfo) (wsql.ResultWriter, error) { return intsWriter{got}, nil },
			OnSummary: func(s wsql.Summary) { summary = s },
		})
	}()
	for v := range got {
		if v == last {
			break
		}
	}
	cancel()
	select {
	case err := <-done:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(stopWait):
		unblock()
		<-done
		t.Fatalf("the query did not stop within %v of its context's cancellation", stopWait)
	}
	return summary
}

// fortyTwoLines is the CSV of n = 1..42.
func fortyTwoLines() string {
	var b strings.Builder
	for n := 1; n <= 42; n++ {
		fmt.Fprintf(&b, "%d,x\n", n)
	}
	return b.String()
}

// A query over an io.Reader table waiting for its next line stops when its
// context is cancelled; the summary counts every row read, not only those
// the WHERE passed. The read the stop abandoned ends with the reader.
func TestCancelStopsQueryOnIdleReaderTable(t *testing.T) {
	before := runtime.NumGoroutine()
	e := wsql.New()
	defer e.Close()
	pr, pw := io.Pipe()
	ctx := context.Background()
	require.NoError(t, e.CreateReaderTable(ctx, `CREATE TABLE lines (n INT, s STRING) WITH ('format' = 'csv')`, pr))
	go func() { _, _ = pw.Write([]byte(fortyTwoLines())) }() // and then nothing: idle, not ended

	s := runUntil(t, e, `SELECT n FROM lines WHERE n % 14 = 0`, 42, func() { pw.Close() })
	require.Equal(t, "42 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows", s.Counts())

	require.NoError(t, pw.Close())
	require.NoError(t, e.Close())
	leakcheck.Goroutines(t, before)
}

// blockingRecords is a program's array.RecordReader that hands out one
// batch and then waits, as a network stream would, until unblock is closed.
type blockingRecords struct {
	schema   *arrow.Schema
	first    arrow.RecordBatch
	cur      arrow.RecordBatch
	unblock  chan struct{}
	released atomic.Int32
	calls    int
}

func (r *blockingRecords) Retain()                        {}
func (r *blockingRecords) Release()                       { r.released.Add(1) }
func (r *blockingRecords) Schema() *arrow.Schema          { return r.schema }
func (r *blockingRecords) RecordBatch() arrow.RecordBatch { return r.cur }
func (r *blockingRecords) Record() arrow.RecordBatch      { return r.cur }
func (r *blockingRecords) Err() error                     { return nil }

func (r *blockingRecords) Next() bool {
	if r.calls++; r.calls == 1 {
		r.cur = r.first
		return true
	}
	<-r.unblock
	return false
}

// A query over an array.RecordReader table waiting for its next batch
// stops when its context is cancelled; the reader is released once its
// Next returns, never while it runs.
func TestCancelStopsQueryOnWaitingRecordReaderTable(t *testing.T) {
	before := runtime.NumGoroutine()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	b := array.NewInt32Builder(mem)
	for n := int32(1); n <= 42; n++ {
		b.Append(n)
	}
	col := b.NewArray()
	b.Release()
	rr := &blockingRecords{schema: schema, first: array.NewRecordBatch(schema, []arrow.Array{col}, 42), unblock: make(chan struct{})}
	col.Release()
	defer rr.first.Release()
	ctx := context.Background()
	require.NoError(t, e.CreateRecordReaderTable(ctx, `CREATE TABLE nums (n INT)`, rr))

	s := runUntil(t, e, `SELECT n FROM nums WHERE n % 14 = 0`, 42, func() { close(rr.unblock) })
	require.Equal(t, "42 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows", s.Counts())
	require.Zero(t, rr.released.Load(), "released while its Next runs")

	close(rr.unblock)
	leakcheck.Goroutines(t, before)
	require.EqualValues(t, 1, rr.released.Load())
}

// A query over a pushed table that has nothing new stops when its context
// is cancelled, with every pushed row counted as read.
func TestCancelStopsQueryOnIdlePushTable(t *testing.T) {
	e := wsql.New()
	defer e.Close()
	ctx := context.Background()
	nums, err := e.CreatePushTable(ctx, `CREATE TABLE nums (n INT)`)
	require.NoError(t, err)
	for n := int32(1); n <= 42; n++ {
		require.NoError(t, nums.AppendRow(ctx, n))
	}
	s := runUntil(t, e, `SELECT n FROM nums WHERE n % 14 = 0`, 42, func() { nums.Close() })
	require.Equal(t, "42 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows", s.Counts())
}

// The summary of a cancelled query counts at least the rows its progress
// reports showed read, also when no row passed the WHERE (the shell's
// status line, then its summary line).
func TestCancelledQuerySummaryCountsTheRowsProgressShowed(t *testing.T) {
	e := wsql.New()
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var shown int64
	var summary wsql.Summary
	err := e.Run(ctx, `
		CREATE TABLE g (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '0',
			'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '1000000000');
		SELECT n FROM g WHERE n < 0`, wsql.Output{
		NewWriter:     func(wsql.ResultInfo) (wsql.ResultWriter, error) { return intsWriter{}, nil },
		ProgressEvery: time.Millisecond,
		OnProgress: func(p wsql.Progress) {
			mu.Lock()
			defer mu.Unlock()
			if shown = p.RowsRead; shown >= 10_000 {
				cancel()
			}
		},
		OnSummary: func(s wsql.Summary) { summary = s },
	})
	require.ErrorIs(t, err, context.Canceled)
	require.GreaterOrEqual(t, summary.RowsRead, shown)
	require.Zero(t, summary.ResultRows)
}
