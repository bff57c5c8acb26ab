package lookup

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/rowtime"
)

// table is (id BIGINT, name STRING): the rows a cache holds.
var table = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// dim is the table's contents: key 1 has two rows, 3 none.
var dim = map[int64][]string{1: {"a", "a2"}, 2: {"b"}, 4: {"d"}, 5: {"e"}, 6: {"f"}}

// cacheRun drives a Cache as a lookup join does, fetching from dim, and
// records the keys each batch fetched.
type cacheRun struct {
	t       *testing.T
	mem     memory.Allocator
	c       *Cache
	clock   *rowtime.ManualClock
	fetched [][]int64
}

func newCacheRun(t *testing.T, opts CacheOptions, keyCols []int) *cacheRun {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	c, err := NewCache(opts, table, keyCols, mem)
	require.NoError(t, err)
	t.Cleanup(c.Release)
	return &cacheRun{t: t, mem: mem, c: c, clock: rowtime.NewManualClock(time.Unix(1000, 0))}
}

// batch probes keys (nil: NULL) and returns each key's rows' names.
func (r *cacheRun) batch(keys ...any) [][]string {
	t := r.t
	probe := arrowtest.Record(t, r.mem, arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil), rowsOf(keys)...)
	defer probe.Release()
	ents := r.c.Probe(r.clock.Now(), probe, []int{0}, nil)
	var fetched []int64
	var rows [][]any
	for _, i := range r.c.Pending() {
		k := probe.Column(0).(*array.Int64).Value(int(i))
		fetched = append(fetched, k)
		for _, name := range dim[k] {
			rows = append(rows, []any{k, name})
		}
	}
	r.fetched = append(r.fetched, fetched)
	got := arrowtest.Record(t, r.mem, table, rows...)
	require.NoError(t, r.c.Fill(got))
	got.Release()
	var out [][]string
	for _, e := range ents {
		var names []string
		if e >= 0 {
			ids := r.c.RowIDs(e, nil)
			if len(ids) > 0 {
				rec, err := r.c.Store().Gather(ids)
				require.NoError(t, err)
				for i := range int(rec.NumRows()) {
					names = append(names, rec.Column(1).(*array.String).Value(i))
				}
				rec.Release()
			}
		}
		out = append(out, names)
	}
	require.NoError(t, r.c.End())
	return out
}

func rowsOf(keys []any) [][]any {
	var rows [][]any
	for _, k := range keys {
		rows = append(rows, []any{k})
	}
	return rows
}

func (r *cacheRun) stats(hits, misses int64) {
	r.t.Helper()
	h, m := r.c.Stats()
	require.Equal(r.t, [2]int64{hits, misses}, [2]int64{h, m}, "hits, misses")
}

func TestCacheFetchesEachKeyOnceAndHoldsIt(t *testing.T) {
	r := newCacheRun(t, CacheOptions{Partial: true, CacheMissingKey: true}, []int{0})
	got := r.batch(int64(1), int64(2), int64(1), nil, int64(3), int64(3))
	require.Equal(t, [][]string{{"a", "a2"}, {"b"}, {"a", "a2"}, nil, nil, nil}, got)
	require.Equal(t, []int64{1, 2, 3}, r.fetched[0], "one fetch a key, in the order asked")
	// the second 1 and the second 3 count as hits: each would have found
	// its key in a batch of its own
	r.stats(2, 3)
	require.Equal(t, 3, r.c.Keys())
	require.Equal(t, int64(4), r.c.Rows(), "1's two rows, 2's one, and 3 without rows counting one")

	got = r.batch(int64(3), int64(2), int64(4))
	require.Equal(t, [][]string{nil, {"b"}, {"d"}}, got)
	require.Equal(t, []int64{4}, r.fetched[1], "a missing key is held")
	r.stats(4, 4)
}

func TestCacheWithoutMissingKeysAsksAgain(t *testing.T) {
	r := newCacheRun(t, CacheOptions{Partial: true}, []int{0})
	r.batch(int64(3), int64(3), int64(2))
	r.stats(0, 3) // the second 3 would have asked again in a batch of its own
	r.batch(int64(3), int64(2))
	require.Equal(t, []int64{3}, r.fetched[1])
	r.stats(1, 4)
	require.Equal(t, 1, r.c.Keys())
}

func TestCacheNoneFetchesEveryBatch(t *testing.T) {
	r := newCacheRun(t, CacheOptions{}, []int{0})
	require.Equal(t, [][]string{{"b"}, {"b"}}, r.batch(int64(2), int64(2)))
	require.Equal(t, [][]string{{"b"}}, r.batch(int64(2)))
	require.Equal(t, [][]int64{{2}, {2}}, r.fetched, "one fetch a batch and key")
	r.stats(0, 3)
	require.Zero(t, r.c.Keys())
	require.Zero(t, r.c.Store().Len(), "no row kept")
}

func TestCacheEvictsTheLeastRecentlyReadBeyondMaxRows(t *testing.T) {
	r := newCacheRun(t, CacheOptions{Partial: true, MaxRows: 3, CacheMissingKey: true}, []int{0})
	r.batch(int64(2))
	r.batch(int64(4))
	r.batch(int64(5))
	r.batch(int64(2)) // read: 4 is now the least recently read
	r.batch(int64(6)) // four rows: 4 goes
	require.Equal(t, 3, r.c.Keys())
	r.batch(int64(2), int64(5), int64(6))
	require.Empty(t, r.fetched[5], "2, 5 and 6 are held")
	r.batch(int64(4))
	require.Equal(t, []int64{4}, r.fetched[6], "4 was evicted")
	// a key of two rows counts two: 1 makes five rows, and 5 and 6, the
	// least recently read, go
	r.batch(int64(1))
	require.Equal(t, int64(3), r.c.Rows())
	r.batch(int64(1), int64(4))
	require.Empty(t, r.fetched[8])
}

func TestCacheExpiresAfterWrite(t *testing.T) {
	r := newCacheRun(t, CacheOptions{Partial: true, ExpireAfterWrite: time.Minute, CacheMissingKey: true}, []int{0})
	r.batch(int64(2))
	r.clock.Advance(40 * time.Second)
	r.batch(int64(2), int64(4)) // a read does not extend a write's life
	require.Equal(t, []int64{4}, r.fetched[1])
	r.clock.Advance(20 * time.Second)
	r.batch(int64(2), int64(4))
	require.Equal(t, []int64{2}, r.fetched[2], "2 written a minute ago expired, 4 did not")
	r.clock.Advance(time.Hour)
	r.batch(int64(5))
	require.Equal(t, 1, r.c.Keys(), "End lets expired keys go unread")
}

func TestCacheExpiresAfterAccess(t *testing.T) {
	r := newCacheRun(t, CacheOptions{Partial: true, ExpireAfterAccess: time.Minute, CacheMissingKey: true}, []int{0})
	r.batch(int64(2), int64(4))
	r.clock.Advance(40 * time.Second)
	r.batch(int64(2)) // read: 2 lives a minute from now
	r.clock.Advance(40 * time.Second)
	r.batch(int64(2), int64(4))
	require.Equal(t, []int64{4}, r.fetched[2], "4 unread for 80 s expired, 2 did not")
	r.stats(2, 3)
}

func TestCacheKeysOfTwoColumnsAndStrings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, cols := range [][]int{{1}, {0, 1}} {
		c, err := NewCache(CacheOptions{Partial: true, CacheMissingKey: true}, table, cols, mem)
		require.NoError(t, err)
		probe := arrowtest.Record(t, mem, table, []any{int64(1), "a"}, []any{int64(1), nil}, []any{int64(1), "a"}, []any{int64(2), "a"})
		ents := c.Probe(time.Unix(0, 0), probe, []int{0, 1}[2-len(cols):], nil)
		require.Equal(t, int32(-1), ents[1], "a NULL in the key")
		require.Equal(t, ents[0], ents[2])
		if len(cols) == 1 {
			require.Equal(t, ents[0], ents[3], "one STRING column: a and a")
			require.Equal(t, []int32{0}, c.Pending())
		} else {
			require.NotEqual(t, ents[0], ents[3])
			require.Equal(t, []int32{0, 3}, c.Pending())
		}
		rows := arrowtest.Record(t, mem, table, []any{int64(1), "a"}, []any{int64(9), "z"})
		require.NoError(t, c.Fill(rows))
		rows.Release()
		probe.Release()
		require.Equal(t, 1, c.Count(ents[0]))
		require.NoError(t, c.End())
		c.Release()
	}
}
