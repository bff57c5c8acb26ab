package jdbc

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/internal/pgtest"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// BenchmarkLookupJoin joins batches of 4096 probe rows (a BIGINT key and
// a value) with a PostgreSQL table of a million rows (id bigint primary
// key, name text, score integer) through the lookup join by key and its
// partial cache: at hit=90%, nine rows in ten have one of 10000 keys the
// cache holds (read before the timer starts), the tenth a key not asked
// before, fetched in the batch's one query. rows/s is probe rows a
// second.
func BenchmarkLookupJoin(b *testing.B) {
	pg := pgtest.Start(b)
	pg.Exec(b, pg.Database, `CREATE TABLE dim (id bigint PRIMARY KEY, name text, score integer);
		INSERT INTO dim SELECT i, 'name-' || i, i % 1000 FROM generate_series(0, 999999) i;
		ANALYZE dim`)
	for _, c := range []struct {
		name  string
		cache string
		hot   float64
	}{{"hit=90%", "'lookup.cache' = 'PARTIAL'", 0.9}, {"hit=0%/cache=NONE", "'lookup.cache' = 'NONE'", 0.9}} {
		b.Run(c.name, func(b *testing.B) {
			src, plan := planLookupOf(b, pg, `CREATE TABLE dim (id BIGINT, name STRING, score INT) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'dim', `+c.cache+`)`, "id")
			mem := memory.NewGoAllocator()
			probe := arrow.NewSchema([]arrow.Field{
				{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
				{Name: "v", Type: arrow.PrimitiveTypes.Int64},
			}, nil)
			cfg := joinop.LookupKeyConfig{
				LookupFileConfig: joinop.LookupFileConfig{Kind: joinop.Inner, Left: probe, Table: src.schema,
					LeftKeys: []int{0}, TableKeys: []int{0}, Clock: rowtime.NewManualClock(time.Unix(0, 0))},
				Source: src, Cache: plan.Cache,
			}
			out := &countRows{}
			op, err := joinop.NewLookupKeyJoin(cfg, mem, out)
			require.NoError(b, err)
			defer op.Close()
			const hotKeys, size = 10_000, 4096
			rnd := rand.New(rand.NewPCG(1, 2))
			cold := int64(hotKeys)
			batch := func(hot float64) arrow.RecordBatch {
				bld := array.NewRecordBuilder(mem, probe)
				defer bld.Release()
				k, v := bld.Field(0).(*array.Int64Builder), bld.Field(1).(*array.Int64Builder)
				for i := range size {
					if rnd.Float64() < hot {
						k.Append(rnd.Int64N(hotKeys))
					} else {
						k.Append(cold)
						cold++
					}
					v.Append(int64(i))
				}
				return bld.NewRecordBatch()
			}
			run := func(rec arrow.RecordBatch) {
				if err := op.ProcessBatch(pipeline.Batch{Record: rec}); err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
			// the hot keys, read into the cache
			for from := int64(0); from < hotKeys; from += size {
				bld := array.NewRecordBuilder(mem, probe)
				for k := from; k < min(from+size, hotKeys); k++ {
					bld.Field(0).(*array.Int64Builder).Append(k)
					bld.Field(1).(*array.Int64Builder).Append(0)
				}
				run(bld.NewRecordBatch())
				bld.Release()
			}
			// the batches made before the timer starts
			batches := make([]arrow.RecordBatch, b.N)
			for i := range batches {
				batches[i] = batch(c.hot)
			}
			before := op.Stats()
			b.ResetTimer()
			start := time.Now()
			for _, rec := range batches {
				run(rec)
			}
			took := time.Since(start)
			b.StopTimer()
			st := op.Stats()
			rows := float64(st.RowsIn - before.RowsIn)
			b.ReportMetric(rows/took.Seconds(), "rows/s")
			b.ReportMetric(float64(st.LookupHits-before.LookupHits)/rows*100, "hit%")
		})
	}
}
