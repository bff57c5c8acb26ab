package wsql_test

import (
	"context"
	stdsql "database/sql"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/driver"
	"github.com/wsql/wsql/internal/leakcheck"
)

// requireCaughtPanic checks that err is a caught panic: ErrInternal, the
// text of the panic and the stack down to the frame that panicked.
func requireCaughtPanic(t *testing.T, err error, text, frame string) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, wsql.ErrInternal)
	var pe *wsql.PanicError
	require.True(t, errors.As(err, &pe), "%T: %v", err, err)
	require.Contains(t, err.Error(), text)
	require.Contains(t, pe.Stack, frame)
}

const guardClicksDDL = `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)`

var guardClicksSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// panickingRecordReader is a program's array.RecordReader that panics in
// Next: the panic happens on the goroutine running the query.
type panickingRecordReader struct{ array.RecordReader }

func (panickingRecordReader) Schema() *arrow.Schema { return guardClicksSchema }
func (panickingRecordReader) Next() bool            { panic("reader bug") }
func (panickingRecordReader) Retain()               {}
func (panickingRecordReader) Release()              {}

// pushClicks pushes three clicks and closes the table.
func pushClicks(t *testing.T, ctx context.Context, e *wsql.Engine) {
	t.Helper()
	clicks, err := e.CreatePushTable(ctx, guardClicksDDL)
	require.NoError(t, err)
	for i, usr := range []string{"a", "b", "a"} {
		require.NoError(t, clicks.AppendRow(ctx, time.UnixMilli(int64(i)*1000), usr))
	}
	require.NoError(t, clicks.Close())
}

const guardInsert = `INSERT INTO alerts SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`

// A panic in a sink table's SinkFunc ends the INSERT with an error naming
// the function, through Exec, Run and the database/sql driver, also with
// the window on several goroutines; the engine stays usable.
func TestPanicInSinkFuncIsAnError(t *testing.T) {
	ctx := context.Background()
	for _, parallelism := range []int{1, 2} {
		before := runtime.NumGoroutine()
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		e := wsql.New(wsql.WithAllocator(mem), wsql.WithParallelism(parallelism))
		calls := 0
		require.NoError(t, e.CreateSinkTable(ctx, `CREATE TABLE alerts (usr STRING, n BIGINT)`, func(context.Context, wsql.RecordBatch) error {
			calls++
			if calls == 1 {
				panic("sink bug")
			}
			return nil
		}))
		pushClicks(t, ctx, e)
		err := e.Exec(ctx, guardInsert)
		requireCaughtPanic(t, err, "the SinkFunc of sink table alerts panicked: sink bug", "TestPanicInSinkFuncIsAnError")
		require.NotContains(t, err.Error(), "please report", "the panic is the program's, not wsql's")

		// the session is not left locked: the next statements run
		db := stdsql.OpenDB(driver.NewConnector(e))
		_, err = db.ExecContext(ctx, `DROP TABLE clicks`)
		require.NoError(t, err)
		pushClicks(t, ctx, e)
		_, err = db.ExecContext(ctx, guardInsert)
		require.NoError(t, err)
		require.Greater(t, calls, 1, "the INSERT after the panic wrote its results")
		require.NoError(t, db.Close())
		require.NoError(t, e.Close())
		leakcheck.Goroutines(t, before)
		mem.AssertSize(t, 0)
	}
}

// A panic on the goroutine that runs a streaming query (here in the
// program's array.RecordReader) ends its Rows with the error, through
// Query and the database/sql driver; nothing is left running.
func TestPanicInQueryGoroutineIsAnError(t *testing.T) {
	ctx := context.Background()
	before := runtime.NumGoroutine()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	e := wsql.New(wsql.WithAllocator(mem))
	const query = `SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`

	require.NoError(t, e.CreateRecordReaderTable(ctx, guardClicksDDL, panickingRecordReader{}))
	rows, err := e.Query(ctx, query)
	if err == nil {
		require.False(t, rows.Next())
		err = rows.Close()
	}
	requireCaughtPanic(t, err, "internal error: panic: reader bug; this is a bug in wsql: please report it", "panickingRecordReader.Next")

	require.NoError(t, e.Exec(ctx, "DROP TABLE clicks"))
	require.NoError(t, e.CreateRecordReaderTable(ctx, guardClicksDDL, panickingRecordReader{}))
	db := stdsql.OpenDB(driver.NewConnector(e))
	r, err := db.QueryContext(ctx, query)
	if err == nil {
		require.False(t, r.Next())
		err = r.Err()
		require.NoError(t, r.Close())
	}
	requireCaughtPanic(t, err, "reader bug", "panickingRecordReader.Next")
	require.NoError(t, db.Close())
	require.NoError(t, e.Close())
	leakcheck.Goroutines(t, before)
	mem.AssertSize(t, 0)
}

// panickingBatch is a RecordBatch whose methods panic.
type panickingBatch struct{ arrow.RecordBatch }

func (panickingBatch) Schema() *arrow.Schema { panic("batch bug") }

// panickingWriter is a result writer that panics on its first batch.
type panickingWriter struct{}

func (panickingWriter) WriteBatch(wsql.RecordBatch) error { panic("writer bug") }
func (panickingWriter) Close() error                      { return nil }

// A panic while pushing to a table from Go, or in a result writer run by
// Run, is returned as an error.
func TestPanicInPushAndRunIsAnError(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	e := wsql.New(wsql.WithAllocator(mem))
	clicks, err := e.CreatePushTable(ctx, guardClicksDDL)
	require.NoError(t, err)
	err = clicks.Append(ctx, panickingBatch{})
	requireCaughtPanic(t, err, "batch bug", "panickingBatch.Schema")
	var pushErr *wsql.PushError
	require.True(t, errors.As(err, &pushErr))
	require.Equal(t, "clicks", pushErr.Table)

	require.NoError(t, clicks.AppendRow(ctx, time.UnixMilli(0), "a"))
	require.NoError(t, clicks.Close())
	err = e.Run(ctx, `SELECT usr FROM clicks`, wsql.Output{NewWriter: func(wsql.ResultInfo) (wsql.ResultWriter, error) { return panickingWriter{}, nil }})
	requireCaughtPanic(t, err, "writer bug", "panickingWriter.WriteBatch")
	require.NoError(t, e.Close())
	mem.AssertSize(t, 0)
}
