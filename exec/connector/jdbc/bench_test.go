package jdbc

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/internal/pgtest"
)

// benchBatches are rows batches of 4096 rows of (id, usr, wend, n,
// total), id counting from 0: a window result as a sink gets it.
func benchBatches(b *testing.B, mem memory.Allocator, schema *arrow.Schema, rows int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	wend := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	for start := 0; start < rows; start += 4096 {
		n := min(4096, rows-start)
		bld := array.NewRecordBuilder(mem, schema)
		for i := start; i < start+n; i++ {
			bld.Field(0).(*array.Int64Builder).Append(int64(i))
			bld.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("user-%d", i%5000))
			bld.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(wend + int64(i%60)*60_000))
			bld.Field(3).(*array.Int64Builder).Append(int64(i % 100))
			bld.Field(4).(*array.Float64Builder).Append(float64(i) * 0.25)
		}
		out = append(out, bld.NewRecordBatch())
		bld.Release()
	}
	b.Cleanup(func() {
		for _, r := range out {
			r.Release()
		}
	})
	return out
}

// benchSink writes rows rows into a PostgreSQL table by the sink of the
// table declared with the WITH options given, b.N times: rows/s is the
// rate from the first batch to the last row committed.
func benchSink(b *testing.B, rows int, pk, opts string, prefill bool) {
	pg := pgtest.Start(b)
	key := ""
	if pk != "" {
		key = ", PRIMARY KEY (id)"
		pk = ", PRIMARY KEY (id) NOT ENFORCED"
	}
	pg.Exec(b, pg.Database, "CREATE TABLE results (id bigint, usr text, wend timestamp(3), n bigint, total double precision"+key+")")
	mem := memory.NewGoAllocator()
	ddl := "CREATE TABLE results (id BIGINT, usr STRING, wend TIMESTAMP(3), n BIGINT, total DOUBLE" + pk + ") WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'results'" + opts + ")"
	s, w := openSinkB(b, pg, ddl)
	batches := benchBatches(b, mem, s.schema, rows)
	if prefill {
		for _, r := range batches {
			require.NoError(b, w.WriteBatch(r))
		}
	}
	require.NoError(b, w.Close())
	b.ResetTimer()
	var took time.Duration
	for range b.N {
		if !prefill {
			b.StopTimer()
			pg.Exec(b, pg.Database, "TRUNCATE results")
			b.StartTimer()
		}
		_, w := openSinkB(b, pg, ddl)
		start := time.Now()
		for _, r := range batches {
			if err := w.WriteBatch(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
	}
	b.ReportMetric(float64(rows)*float64(b.N)/took.Seconds(), "rows/s")
	require.Equal(b, []string{fmt.Sprint(rows)}, pg.Query(b, "SELECT count(*) FROM results"))
}

func openSinkB(b *testing.B, pg *pgtest.Server, ddl string) (*tableSink, interface {
	WriteBatch(arrow.RecordBatch) error
	Close() error
}) {
	tbl := parseTable(b, strings.ReplaceAll(ddl, "${url}", pg.JDBCURL()))
	ts, err := planSink(tbl, tbl.Options[0])
	require.NoError(b, err)
	s := ts.(*tableSink)
	s.Bind(tbl, tbl.Columns)
	w, err := s.Open(b.Context(), &connector.SinkRun{Location: time.UTC})
	require.NoError(b, err)
	return s, w
}

// BenchmarkAppendCopy copies rows into a table without a key.
func BenchmarkAppendCopy(b *testing.B) {
	for _, rows := range []int{5000, 20_000, 50_000} {
		b.Run(fmt.Sprintf("flush=%d", rows), func(b *testing.B) {
			benchSink(b, 1_000_000, "", fmt.Sprintf(", 'sink.buffer-flush.max-rows' = '%d'", rows), false)
		})
	}
}

// BenchmarkUpsert upserts rows by their key: new keys (inserts), and the
// same keys again (updates of every row), over one connection or more
// ('sink.parallelism').
func BenchmarkUpsert(b *testing.B) {
	for _, c := range []struct {
		name    string
		prefill bool
	}{{"new-keys", false}, {"existing-keys", true}} {
		for _, rows := range []int{5000, 20_000} {
			for _, lanes := range []int{1, 2, 4} {
				b.Run(fmt.Sprintf("%s/flush=%d/connections=%d", c.name, rows, lanes), func(b *testing.B) {
					benchSink(b, 500_000, "id", fmt.Sprintf(", 'sink.buffer-flush.max-rows' = '%d', 'sink.parallelism' = '%d'", rows, lanes), c.prefill)
				})
			}
		}
	}
}

// BenchmarkScan reads a table of 1M rows of (id bigint, usr text, wend
// timestamp(3), n bigint, total numeric(12, 2)) whole, in batches of
// 4096, from Open to the last batch: in one query, and in 4 ranges read
// on 4 connections at once.
func BenchmarkScan(b *testing.B) {
	const rows = 1_000_000
	pg := pgtest.Start(b)
	pg.Exec(b, pg.Database, `CREATE TABLE results (id bigint, usr text, wend timestamp(3), n bigint, total numeric(12, 2));
		INSERT INTO results SELECT i, 'user-' || (i % 5000), TIMESTAMP '2026-01-01' + (i % 60) * INTERVAL '1 minute', i % 100, i * 0.25
		FROM generate_series(0, `+fmt.Sprint(rows-1)+`) i`)
	pg.Exec(b, pg.Database, "VACUUM ANALYZE results")
	for _, c := range []struct{ name, opts string }{
		{"one-query", ""},
		{"ranges=4", fmt.Sprintf(", 'scan.partition.column' = 'id', 'scan.partition.num' = '4', 'scan.partition.lower-bound' = '0', 'scan.partition.upper-bound' = '%d'", rows-1)},
	} {
		b.Run(c.name, func(b *testing.B) {
			tbl := parseTable(b, "CREATE TABLE results (id BIGINT, usr STRING, wend TIMESTAMP(3), n BIGINT, total DECIMAL(12, 2)) WITH ('connector' = 'jdbc', 'url' = '"+pg.JDBCURL()+"', 'table-name' = 'results'"+c.opts+")")
			src, err := planSource(tbl, tbl.Options[0], &connector.Env{BatchSize: 4096})
			require.NoError(b, err)
			mem := memory.NewGoAllocator()
			var took time.Duration
			for range b.N {
				start := time.Now()
				r, err := src.Open(mem, nil)
				require.NoError(b, err)
				n := 0
				for {
					st, err := r.Next()
					if err != nil {
						require.ErrorIs(b, err, io.EOF)
						break
					}
					if st.Record != nil {
						n += int(st.Record.NumRows())
						st.Record.Release()
					}
				}
				took += time.Since(start)
				require.NoError(b, r.Close())
				require.Equal(b, rows, n)
			}
			b.ReportMetric(float64(rows)*float64(b.N)/took.Seconds(), "rows/s")
		})
	}
}
