package wsql_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

func TestSinkTableSendsBatchesOnAChannel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer e.Close()
	ch := make(chan wsql.RecordBatch)
	// the sink's columns in another order than the INSERT's, and an update stream
	require.NoError(t, e.CreateSinkTable(ctx, `CREATE TABLE results (n BIGINT, usr STRING)`, wsql.SendTo(ch)))
	done := make(chan error, 1)
	go func() {
		done <- e.Exec(ctx, `
			CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
			WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
			SET 'table.exec.emit.allow-lateness' = '1 h';
			SET 'table.exec.emit.late-fire.enabled' = 'true';
			INSERT INTO results (usr, n) SELECT usr, COUNT(*) FROM clicks WHERE usr = 'bob'
			GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`)
		close(ch)
	}()
	var got []string
	for b := range ch {
		require.Equal(t, "op", b.Schema().Field(0).Name)
		require.Equal(t, "n", b.Schema().Field(1).Name)
		require.Equal(t, "usr", b.Schema().Field(2).Name)
		for i := range int(b.NumRows()) {
			got = append(got, b.Column(0).ValueStr(i)+" "+b.Column(2).ValueStr(i)+" "+b.Column(1).ValueStr(i))
		}
		b.Release()
	}
	require.NoError(t, <-done)
	require.Equal(t, []string{"+I bob 4", "-U bob 4", "+U bob 5", "+I bob 3", "+I bob 5"}, got)
}

func TestSinkTableErrorStopsTheInsert(t *testing.T) {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	require.NoError(t, e.CreateSinkTable(ctx, `CREATE TABLE results (n BIGINT)`, func(context.Context, wsql.RecordBatch) error {
		return context.DeadlineExceeded
	}))
	err := e.Exec(ctx, `CREATE TABLE g (x BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10');
		INSERT INTO results SELECT x FROM g`)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	_, err = e.Query(ctx, `SELECT n FROM results`)
	require.ErrorContains(t, err, "table results is a sink registered from Go: INSERT INTO it, it cannot be read")
	_, err = e.Query(ctx, `SELECT x FROM g`)
	require.NoError(t, err)
}

func TestReaderTablesAreReadOnce(t *testing.T) {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	require.NoError(t, e.CreateReaderTable(ctx, `CREATE TABLE r (x INT) WITH ('format' = 'json')`, strings.NewReader(`{"x": 1}`+"\n")))
	read := func() (string, error) {
		rows, err := e.Query(ctx, `SELECT x FROM r`)
		if err != nil {
			return "", err
		}
		out := ""
		for b, err := range rows.All() {
			if err != nil {
				return "", err
			}
			out += b.Column(0).ValueStr(0)
		}
		return out, nil
	}
	got, err := read()
	require.NoError(t, err)
	require.Equal(t, "1", got)
	_, err = read()
	require.ErrorContains(t, err, "table r was already read by an earlier query; an io.Reader can be read once")

	err = e.CreateReaderTable(ctx, `CREATE TABLE nofmt (x INT)`, strings.NewReader(""))
	require.NoError(t, err)
	_, err = e.Query(ctx, `SELECT x FROM nofmt`)
	require.ErrorContains(t, err, "table nofmt reads an io.Reader and needs a 'format' option (csv or json or debezium-json)")
	require.NoError(t, e.CreateReaderTable(ctx, `CREATE TABLE badopt (x INT) WITH ('format' = 'csv', 'path' = 'x')`, strings.NewReader("")))
	_, err = e.Query(ctx, `SELECT x FROM badopt`)
	require.ErrorContains(t, err, "unsupported option 'path' for a table registered from Go")
}

func TestRecordReaderTableChecksTheSchema(t *testing.T) {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()
	schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rr, err := array.NewRecordReader(schema, nil)
	require.NoError(t, err)
	defer rr.Release()
	err = e.CreateRecordReaderTable(ctx, `CREATE TABLE t (ts TIMESTAMP(3))`, rr)
	require.EqualError(t, err, "1:1: table t: the array.RecordReader does not fit: column ts is int64, the table declares timestamp[ms]")
}

func TestPushedRowsAreReleasedWithTheTableOrEngine(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem), wsql.WithBatchSize(2))
	dropped, err := e.CreatePushTable(ctx, `CREATE TABLE dropped (ts TIMESTAMP(3), s STRING)`)
	require.NoError(t, err)
	kept, err := e.CreatePushTable(ctx, `CREATE TABLE kept (ts TIMESTAMP(3), s STRING)`)
	require.NoError(t, err)
	for i := range 5 {
		require.NoError(t, dropped.AppendRow(ctx, t0.Add(time.Duration(i)*time.Second), "x"))
		require.NoError(t, kept.AppendRow(ctx, t0.Add(time.Duration(i)*time.Second), "x"))
	}
	var explain string
	require.NoError(t, e.Run(ctx, `EXPLAIN SELECT s FROM kept`, wsql.Output{OnText: func(s string) { explain = s }}))
	require.Contains(t, explain, "TableSourceScan(table=[kept], connector=[pushed from Go], splits=[1], fields=[ts, s])")
	require.NoError(t, e.Exec(ctx, `DROP TABLE dropped`))
	require.ErrorIs(t, dropped.AppendRow(ctx, t0, "x"), wsql.ErrPushClosed)
	require.NoError(t, e.Close())
	require.ErrorIs(t, kept.AppendRow(ctx, t0, "x"), wsql.ErrPushClosed)
}
