package lookup

import (
	"fmt"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowstore"
)

// Cache holds a table's rows by key between a lookup join's batches. A
// batch goes: Probe finds each probe row's key, giving a key not held a
// pending entry; the join fetches the Pending keys in one query and
// passes the rows to Fill; it reads each entry's rows (Rows) into its
// output; End then lets go what is not to be kept (every key with
// 'NONE', a key without rows unless CacheMissingKey, the least recently
// used keys beyond MaxRows, the expired ones).
//
// Hits and misses count probe rows with a key: a row whose key was held
// is a hit, a row whose key had to be fetched a miss. A row whose key an
// earlier row of the same batch had to fetch counts as it would in a batch
// of its own, after that row: a hit when the key is kept, a miss when it
// is not. So the counts do not depend on how rows are cut into batches
// (unless the cache is too small to hold a batch's keys).
type Cache struct {
	opts  CacheOptions
	store *rowstore.Store
	keys  keyIndex
	// next links the store ids of one key's rows: -1 ends the list.
	next    []int32
	entries []entry  // pointer-free, so the collector does not scan them
	skeys   []string // by entry: the key of a string or bytes index
	free    []int32
	lru     list // by last read, most recent first
	fifo    list // by write, oldest first
	rows    int64
	now     int64 // the batch's time, in nanoseconds
	// the batch's pending entries, the probe row that asked first for
	// each, and how many later rows asked again
	pending, pendingRow, dups []int32
	batch                     []int32 // entries filled this batch
	hits, misses              int64

	// reused
	ids, scratch []int32
	all          []int32
}

// entry is a key and its rows.
type entry struct {
	head, tail int32 // store ids of the first and last row; -1: none
	n          int32 // rows
	state      entryState
	written    int64
	accessed   int64
	ikey       int64 // the key of an integer index
	lru, fifo  links
}

type entryState uint8

const (
	entryFree entryState = iota
	entryPending
	entryHeld
)

type links struct{ prev, next int32 }

// list is a doubly linked list of entries through one of their links.
type list struct {
	head, tail int32
	of         func(*entry) *links
}

// NewCache is an empty cache of rows of table, whose key columns are
// keyCols; its rows are kept in a rowstore.Store of mem.
func NewCache(opts CacheOptions, table *arrow.Schema, keyCols []int, mem memory.Allocator) (*Cache, error) {
	keys, err := newKeyIndex(table, keyCols)
	if err != nil {
		return nil, err
	}
	c := &Cache{opts: opts, store: rowstore.New(table, mem), keys: keys}
	c.lru = list{head: -1, tail: -1, of: func(e *entry) *links { return &e.lru }}
	c.fifo = list{head: -1, tail: -1, of: func(e *entry) *links { return &e.fifo }}
	return c, nil
}

// Stats are the hits and misses so far.
func (c *Cache) Stats() (hits, misses int64) { return c.hits, c.misses }

// Keys is the number of keys held; Rows the rows held (a key without rows
// counting one).
func (c *Cache) Keys() int   { return c.keys.len() }
func (c *Cache) Rows() int64 { return c.rows }

// Store holds the rows the entries name.
func (c *Cache) Store() *rowstore.Store { return c.store }

// Probe starts a batch at time now: it writes into out the entry of each
// row of rec, whose key columns are cols (of the types of the table's key
// columns), and returns out; a row with a NULL in its key gets -1. An
// expired key is let go first. A key not held gets a pending entry, to be
// filled by Fill.
func (c *Cache) Probe(now time.Time, rec arrow.RecordBatch, cols []int, out []int32) []int32 {
	c.now = now.UnixNano()
	c.pending, c.pendingRow, c.dups = c.pending[:0], c.pendingRow[:0], c.dups[:0]
	out = c.keys.find(rec, cols, out)
	for i, e := range out {
		switch {
		case e == -1:
		case e == -2 && len(c.pending) == 0: // not held
			out[i] = c.add(rec, cols, i)
		case e == -2:
			// not held before the batch: an earlier row may have added it
			if e = c.keys.get(rec, cols, i); e == -2 {
				out[i] = c.add(rec, cols, i)
				continue
			}
			out[i] = e
			c.dups[c.entries[e].n]++
		default:
			en := &c.entries[e]
			if en.state == entryPending {
				c.dups[en.n]++ // n is the pending number until filled
				continue
			}
			if c.expired(en) {
				c.remove(e)
				out[i] = c.add(rec, cols, i)
				continue
			}
			c.hits++
			en.accessed = c.now
			c.lru.moveToFront(c, e)
		}
	}
	return out
}

// add gives row i's key a pending entry.
func (c *Cache) add(rec arrow.RecordBatch, cols []int, i int) int32 {
	e := c.alloc()
	en := &c.entries[e]
	en.state, en.head, en.tail = entryPending, -1, -1
	en.n = int32(len(c.pending))
	c.keys.put(rec, cols, i, c, e)
	c.pending = append(c.pending, e)
	c.pendingRow = append(c.pendingRow, int32(i))
	c.dups = append(c.dups, 0)
	c.misses++
	return e
}

func (c *Cache) alloc() int32 {
	if n := len(c.free); n > 0 {
		e := c.free[n-1]
		c.free = c.free[:n-1]
		return e
	}
	c.entries = append(c.entries, entry{})
	if c.keys.kind != keyInt {
		c.skeys = append(c.skeys, "")
	}
	return int32(len(c.entries) - 1)
}

// expired reports a held entry past its time.
func (c *Cache) expired(en *entry) bool {
	w, a := c.opts.ExpireAfterWrite, c.opts.ExpireAfterAccess
	return w > 0 && c.now-en.written >= int64(w) || a > 0 && c.now-en.accessed >= int64(a)
}

// Pending is the probe rows, one per key not held, whose keys the join
// fetches: a row of the batch Probe read each.
func (c *Cache) Pending() []int32 { return c.pendingRow }

// Fill keeps rows, the rows fetched for the pending keys (a batch of the
// table's schema, or nil for none), under their keys; a row of no
// pending key is dropped.
// The pending entries are then held, with or without rows.
func (c *Cache) Fill(rows arrow.RecordBatch) error {
	if rows != nil && rows.NumRows() > 0 {
		n := int(rows.NumRows())
		all := c.all[:0]
		for i := range n {
			all = append(all, int32(i))
		}
		c.all = all
		ids, err := c.store.Add(rows, all, c.ids[:0])
		c.ids = ids
		if err != nil {
			return err
		}
		if top := int(maxID(ids)); top >= len(c.next) {
			c.next = slices.Grow(c.next, top+1-len(c.next))[:top+1]
		}
		found := c.keys.find(rows, c.keys.tableCols, c.scratch[:0])
		c.scratch = found
		for r, e := range found {
			id := ids[r]
			if e < 0 || c.entries[e].state != entryPending {
				c.store.Remove(id)
				continue
			}
			en := &c.entries[e]
			c.next[id] = -1
			if en.tail < 0 {
				en.head = id
			} else {
				c.next[en.tail] = id
			}
			en.tail = id
		}
	}
	c.batch = c.batch[:0]
	for k, e := range c.pending {
		en := &c.entries[e]
		en.state = entryHeld
		en.n = 0
		for id := en.head; id >= 0; id = c.next[id] {
			en.n++
		}
		en.written, en.accessed = c.now, c.now
		c.rows += int64(max(en.n, 1))
		c.lru.pushFront(c, e)
		c.fifo.pushBack(c, e)
		if c.keeps(en) {
			c.hits += int64(c.dups[k])
		} else {
			c.misses += int64(c.dups[k])
			c.batch = append(c.batch, e)
		}
	}
	return nil
}

func maxID(ids []int32) int32 {
	m := int32(-1)
	for _, id := range ids {
		m = max(m, id)
	}
	return m
}

// keeps reports whether a filled entry stays after its batch.
func (c *Cache) keeps(en *entry) bool {
	return c.opts.Partial && (en.n > 0 || c.opts.CacheMissingKey)
}

// RowIDs appends the store ids of entry e's rows to ids, in the order
// the table gave them.
func (c *Cache) RowIDs(e int32, ids []int32) []int32 {
	for id := c.entries[e].head; id >= 0; id = c.next[id] {
		ids = append(ids, id)
	}
	return ids
}

// Count is the number of rows of entry e.
func (c *Cache) Count(e int32) int { return int(c.entries[e].n) }

// End ends the batch: the entries not kept go, then the least recently
// read while more than MaxRows rows are held, then the expired ones.
func (c *Cache) End() error {
	for _, e := range c.batch {
		c.remove(e)
	}
	c.batch = c.batch[:0]
	for c.opts.MaxRows > 0 && c.rows > c.opts.MaxRows && c.lru.tail >= 0 {
		c.remove(c.lru.tail)
	}
	if a := int64(c.opts.ExpireAfterAccess); a > 0 {
		for e := c.lru.tail; e >= 0 && c.now-c.entries[e].accessed >= a; e = c.lru.tail {
			c.remove(e)
		}
	}
	if w := int64(c.opts.ExpireAfterWrite); w > 0 {
		for e := c.fifo.head; e >= 0 && c.now-c.entries[e].written >= w; e = c.fifo.head {
			c.remove(e)
		}
	}
	return c.store.Compact()
}

// remove lets entry e and its rows go.
func (c *Cache) remove(e int32) {
	en := &c.entries[e]
	if en.state == entryFree {
		panic(fmt.Sprintf("lookup cache: entry %d removed twice", e))
	}
	c.keys.delete(c, e)
	ids := c.RowIDs(e, c.ids[:0])
	c.ids = ids
	if len(ids) > 0 {
		c.store.RemoveAll(ids)
	}
	if en.state == entryHeld {
		c.rows -= int64(max(en.n, 1))
		c.lru.unlink(c, e)
		c.fifo.unlink(c, e)
	}
	*en = entry{}
	if c.skeys != nil {
		c.skeys[e] = ""
	}
	c.free = append(c.free, e)
}

// Release lets every row go.
func (c *Cache) Release() {
	c.store.Release()
}

func (l *list) pushFront(c *Cache, e int32) {
	lk := l.of(&c.entries[e])
	lk.prev, lk.next = -1, l.head
	if l.head >= 0 {
		l.of(&c.entries[l.head]).prev = e
	} else {
		l.tail = e
	}
	l.head = e
}

func (l *list) pushBack(c *Cache, e int32) {
	lk := l.of(&c.entries[e])
	lk.prev, lk.next = l.tail, -1
	if l.tail >= 0 {
		l.of(&c.entries[l.tail]).next = e
	} else {
		l.head = e
	}
	l.tail = e
}

func (l *list) unlink(c *Cache, e int32) {
	lk := l.of(&c.entries[e])
	if lk.prev >= 0 {
		l.of(&c.entries[lk.prev]).next = lk.next
	} else {
		l.head = lk.next
	}
	if lk.next >= 0 {
		l.of(&c.entries[lk.next]).prev = lk.prev
	} else {
		l.tail = lk.prev
	}
	lk.prev, lk.next = -1, -1
}

func (l *list) moveToFront(c *Cache, e int32) {
	if l.head == e {
		return
	}
	l.unlink(c, e)
	l.pushFront(c, e)
}

// nullRows is a batch of one row of NULLs of schema.
func nullRows(schema *arrow.Schema, mem memory.Allocator) arrow.RecordBatch {
	cols := make([]arrow.Array, schema.NumFields())
	for i, f := range schema.Fields() {
		cols[i] = array.MakeArrayOfNull(mem, f.Type, 1)
	}
	rec := array.NewRecordBatch(schema, cols, 1)
	for _, col := range cols {
		col.Release()
	}
	return rec
}

// AddNullRow keeps a row of NULLs in the store (outside any key) and
// returns its id: the table's side of a LEFT join's padded rows.
func (c *Cache) AddNullRow(mem memory.Allocator) (int32, error) {
	rec := nullRows(c.store.Schema(), mem)
	defer rec.Release()
	ids, err := c.store.Add(rec, []int32{0}, nil)
	if err != nil {
		return -1, err
	}
	for len(c.next) <= int(ids[0]) {
		c.next = append(c.next, -1)
	}
	return ids[0], nil
}
