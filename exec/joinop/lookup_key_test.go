package joinop

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
)

// The lookup join by key is tested over the lookup file join's table
// file: fileLookup answers a query with the rows of the file as it is
// then whose key is asked, as a database would (the PostgreSQL lookups
// are tested in exec/connector/jdbc).

// fileLookup is a lookup.Source over a table file read by load.
type fileLookup struct {
	load    func(memory.Allocator) (arrow.RecordBatch, error)
	queries *int
	keys    *[][]int64 // the keys of each query
	fail    error      // every Lookup fails with it when set
}

func (f fileLookup) Open(mem memory.Allocator) (lookup.Lookuper, error) {
	return &fileLookuper{f: f, mem: mem}, nil
}

type fileLookuper struct {
	f   fileLookup
	mem memory.Allocator
}

func (l *fileLookuper) Lookup(keys arrow.RecordBatch) (arrow.RecordBatch, error) {
	if l.f.fail != nil {
		return nil, l.f.fail
	}
	if l.f.queries != nil {
		*l.f.queries++
	}
	asked := map[int64]bool{}
	var list []int64
	k := keys.Column(0).(*array.Int64)
	for i := range k.Len() {
		if k.IsNull(i) || asked[k.Value(i)] {
			return nil, errors.New("a NULL or repeated key asked")
		}
		asked[k.Value(i)] = true
		list = append(list, k.Value(i))
	}
	if l.f.keys != nil {
		*l.f.keys = append(*l.f.keys, list)
	}
	all, err := l.f.load(l.mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	tk := all.Column(0).(*array.Int64)
	var rows []int32
	for i := range tk.Len() {
		if tk.IsValid(i) && asked[tk.Value(i)] {
			rows = append(rows, int32(i))
		}
	}
	return expr.TakeRecord(all, rows, l.mem)
}

func (l *fileLookuper) Close() error { return nil }

// lkKeyRun is lkRun of the lookup join by key with cache, every key
// expiring when the table changes (lkSwitch lets CheckInterval pass). It
// returns the number of queries too.
func lkKeyRun(t testing.TB, s tjShape, tables [][]lkRow, events []tmpEvent, size int, cache lookup.CacheOptions) ([]string, int) {
	queries := 0
	lines, _ := lkDrive(t, s, tables, events, size, false, func(cfg LookupFileConfig, mem memory.Allocator, out pipeline.Operator) (LookupOperator, error) {
		if cache.ExpireAfterWrite > 0 {
			cache.ExpireAfterWrite = cfg.CheckInterval
		}
		return NewLookupKeyJoin(LookupKeyConfig{LookupFileConfig: cfg, Cache: cache,
			Source: fileLookup{load: cfg.Load, queries: &queries}}, mem, out)
	})
	return lines, queries
}

// TestLookupKeyJoinMatchesReference: random probe streams and table
// versions, in batches of 1, 3 and 4096 rows, without a cache and with
// one whose keys expire when the table changes, against a nested loop
// over the table in effect.
func TestLookupKeyJoinMatchesReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 23))
	caches := []lookup.CacheOptions{{}, {Partial: true, ExpireAfterWrite: 1, CacheMissingKey: true},
		{Partial: true, ExpireAfterWrite: 1, MaxRows: 3}}
	for _, s := range tjShapes() {
		if s.rightUpdates || s.nullSafe {
			continue
		}
		for seed := range 2 {
			tables, events := lkRandomCase(rnd, s)
			want := lkReference(s, tables, events)
			for _, cache := range caches {
				for _, size := range []int{1, 3, 4096} {
					got, _ := lkKeyRun(t, s, tables, events, size, cache)
					require.Equal(t, want, got, "%+v seed %d, cache %s, batches of %d", s, seed, cache, size)
				}
			}
		}
	}
}

func TestLookupKeyJoinQueriesOnceABatch(t *testing.T) {
	rows := []lkRow{lkR(1, "a", 10), lkR(1, "b", 11), lkR(2, "c", 12)}
	var events []tmpEvent
	for i := range 100 {
		events = append(events, tjL(int64(i), int64(i%7), 0))
	}
	s := tjShape{outer: true}
	_, queries := lkKeyRun(t, s, [][]lkRow{rows}, events, 4096, lookup.CacheOptions{})
	require.Equal(t, 1, queries, "100 rows of 7 keys in one batch: one query")
	_, queries = lkKeyRun(t, s, [][]lkRow{rows}, events, 10, lookup.CacheOptions{})
	require.Equal(t, 10, queries, "no cache: a query a batch")
	_, queries = lkKeyRun(t, s, [][]lkRow{rows}, events, 10, lookup.CacheOptions{Partial: true, CacheMissingKey: true})
	require.Equal(t, 1, queries, "the first batch holds every key: the cache answers the others")
}

func TestLookupKeyJoinCountsHitsAndMisses(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := tjShape{}.lookupConfig("", rowtime.NewManualClock(time.Unix(0, 0)))
	var keys [][]int64
	cfg.Load = lkLoaderRows([]lkRow{lkR(1, "a", 10), lkR(2, "b", 11)})
	op, err := NewLookupKeyJoin(LookupKeyConfig{LookupFileConfig: cfg,
		Cache:  lookup.CacheOptions{Partial: true, CacheMissingKey: true},
		Source: fileLookup{load: cfg.Load, keys: &keys}}, mem, &tjLog{})
	require.NoError(t, err)
	defer op.Close()
	for _, batch := range [][]tmpEvent{
		{tjL(1, 1, 0), tjL(2, 2, 0), tjL(3, 1, 0), {time: 4, val: 0}, tjL(5, 3, 0)},
		{tjL(6, 3, 0), tjL(7, 2, 0), tjL(8, 4, 0)},
	} {
		rec := tjBatch(mem, cfg.Left, batch)
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
		rec.Release()
	}
	require.Equal(t, [][]int64{{1, 2, 3}, {4}}, keys, "each key asked once, in order; 3 kept without rows")
	st := op.Stats()
	require.Equal(t, int64(3), st.LookupHits, "the second 1, then 3 and 2")
	require.Equal(t, int64(4), st.LookupMisses, "1, 2, 3, then 4; the NULL key neither")
	require.Equal(t, int64(8), st.RowsIn)

	// the counters survive a checkpoint; the cache does not
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	op2, err := NewLookupKeyJoin(LookupKeyConfig{LookupFileConfig: cfg, Source: fileLookup{load: cfg.Load}}, mem, &tjLog{})
	require.NoError(t, err)
	defer op2.Close()
	require.NoError(t, op2.RestoreState(checkpoint.NewDecoder(e.Data())))
	require.Equal(t, st, op2.Stats())
}

func TestLookupKeyJoinReportsAFailedQuery(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := tjShape{}.lookupConfig("", nil)
	boom := errors.New("table t: the server went away")
	op, err := NewLookupKeyJoin(LookupKeyConfig{LookupFileConfig: cfg, Source: fileLookup{fail: boom}}, mem, &tjLog{})
	require.NoError(t, err)
	defer op.Close()
	rec := tjBatch(mem, cfg.Left, []tmpEvent{tjL(1, 1, 0)})
	defer rec.Release()
	require.ErrorIs(t, op.ProcessBatch(pipeline.Batch{Record: rec}), boom)
}

func TestLookupKeyJoinKeepsTheOperatorContract(t *testing.T) {
	cfg := tjShape{outer: true, residual: true}.lookupConfig("", nil)
	cfg.Load = lkLoaderRows([]lkRow{lkR(1, "a", 10), lkR(1, "b", 11), lkR(2, "c", 12)})
	for _, cache := range []lookup.CacheOptions{{}, {Partial: true, MaxRows: 1}} {
		pipelinetest.TestOperator(t, pipelinetest.Harness{
			New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
				return NewLookupKeyJoin(LookupKeyConfig{LookupFileConfig: cfg, Cache: cache, Source: fileLookup{load: cfg.Load}}, mem, next)
			},
			Input: func(mem memory.Allocator) []pipelinetest.Step {
				return []pipelinetest.Step{
					pipelinetest.BatchStep(tjBatch(mem, cfg.Left, []tmpEvent{tjL(1, 1, 10), tjL(2, 2, 12), tjL(3, 3, 0)}), []int64{0, 1, 1}),
					pipelinetest.WatermarkStep(1),
					pipelinetest.BatchStep(tjBatch(mem, cfg.Left, []tmpEvent{tjL(4, 1, 0)}), nil),
					pipelinetest.WatermarkStep(4),
				}
			},
		})
	}
}

// lkLoaderRows loads rows as the table.
func lkLoaderRows(rows []lkRow) func(memory.Allocator) (arrow.RecordBatch, error) {
	return func(mem memory.Allocator) (arrow.RecordBatch, error) {
		b := array.NewRecordBuilder(mem, lkTableSchema)
		defer b.Release()
		for _, r := range rows {
			if r.key == nil {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.Int64Builder).Append(*r.key)
			}
			b.Field(1).(*array.StringBuilder).Append(r.name)
			b.Field(2).(*array.Int64Builder).Append(r.rate)
		}
		return b.NewRecordBatch(), nil
	}
}
