package rowstore

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Store holds rows of one schema, each under an id.
type Store struct {
	mem    memory.Allocator
	out    memory.Allocator // the gathered columns' (mem unless GatherFrom)
	schema *arrow.Schema
	chunks []arrow.RecordBatch // kept rows (copies, or a whole batch); nil once empty
	live   []int               // per chunk: rows still kept
	where  places              // by id; chunk -1 for a free id
	free   []int32
	kept   int // rows kept
	held   int // rows in the chunks, kept or not

	// spilling (spill.go): with a budget, a chunk may be in the spill
	// file rather than in memory (chunks[c] nil, disk[c] set)
	budget *Budget
	bytes  []int64         // per chunk: its bytes in memory, counted in the budget
	disk   []*spilledChunk // per chunk: where it is in the file once spilled
	file   *spillFile      // nil until the first spill
	oldest int             // chunks before it are spilled or gone
	// fileDead is the bytes of the file no kept row is in (chunks gone)
	fileDead int64
	writer   spillWriter
	unspill  unspiller
	loads    []load // GatherWith's spilled chunks, reused
	canSpill bool

	// GatherWith's, reused
	src    []columnSource // the chunks a gather reads
	places []place        // its rows, by their chunk in src
	slot   []int32        // by chunk (the batch last): its place in src + 1
	runs   []run
	all    []int // every column: 0, 1, ...
}

type place struct{ chunk, row int32 }

// run is n consecutive rows of one chunk from row on.
type run struct{ chunk, row, n int32 }

// New returns an empty store of rows of schema.
func New(schema *arrow.Schema, mem memory.Allocator) *Store {
	s := &Store{mem: mem, out: mem, schema: schema, unspill: unspiller{mem: mem}}
	for c := range schema.NumFields() {
		s.all = append(s.all, c)
	}
	if b := budgetOf(mem); b != nil {
		s.SpillTo(b) // an empty store: accounts nothing, cannot fail
	}
	return s
}

// GatherFrom makes the columns GatherWith builds come from mem, not from
// the store's own allocator: an operator that emits its gathered rows
// batch after batch gives its recycling allocator, whose buffers come
// back once downstream releases each batch (a deduplication emits two
// rows per row read: 440 MB of garbage over the benchmark's 10M rows).
func (s *Store) GatherFrom(mem memory.Allocator) { s.out = mem }

// Len is the number of rows kept.
func (s *Store) Len() int { return s.kept }

// Add keeps the rows rows of rec and appends their ids to ids.
func (s *Store) Add(rec arrow.RecordBatch, rows []int32, ids []int32) ([]int32, error) {
	if len(rows) == 0 {
		return ids, nil
	}
	chunk, err := s.chunkOf(rec, rows)
	if err != nil {
		return ids, err
	}
	c := s.appendChunk(chunk, len(rows))
	ids = s.number(c, len(rows), ids)
	s.kept += len(rows)
	return ids, s.account(c)
}

// AddAll keeps every row of rec, as Add of rows 0, 1, ... does, and
// appends their ids to ids, without the list of rows: a join's side that
// keeps whole batches (Nexmark q7_tvf's bids).
func (s *Store) AddAll(rec arrow.RecordBatch, ids []int32) ([]int32, error) {
	n := int(rec.NumRows())
	if n == 0 {
		return ids, nil
	}
	rec.Retain()
	c := s.appendChunk(rec, n)
	ids = s.number(c, n, ids)
	s.kept += n
	return ids, s.account(c)
}

// number gives rows 0..n-1 of chunk c ids, appended to ids: free ids
// first, as place takes them, the rest as one run of new ids (a look at
// the id table's last run per row was 0.08 s of Nexmark q7_tvf's 9.2M
// bids).
func (s *Store) number(c int32, n int, ids []int32) []int32 {
	r := 0
	for ; r < n && len(s.free) > 0; r++ {
		ids = append(ids, s.place(place{chunk: c, row: int32(r)}))
	}
	if r < n {
		first := s.where.addRun(c, int32(r), n-r)
		for id := first; r < n; r, id = r+1, id+1 {
			ids = append(ids, id)
		}
	}
	return ids
}

// appendChunk appends a chunk of which live rows are kept.
func (s *Store) appendChunk(chunk arrow.RecordBatch, live int) int32 {
	c := int32(len(s.chunks))
	s.chunks = append(s.chunks, chunk)
	s.live = append(s.live, live)
	s.held += int(chunk.NumRows())
	if s.budget != nil {
		s.bytes = append(s.bytes, 0)
		s.disk = append(s.disk, nil)
	}
	return c
}

// chunkOf is the chunk that keeps rows of rec: rec itself when they are
// all its rows in order, a copy of them otherwise. Records are immutable,
// so holding a reference costs nothing, where the copy was an eighth of
// an event-time OVER aggregation's CPU (every row kept until the
// watermark).
func (s *Store) chunkOf(rec arrow.RecordBatch, rows []int32) (arrow.RecordBatch, error) {
	if len(rows) != int(rec.NumRows()) {
		return expr.TakeRecord(rec, rows, s.mem)
	}
	for i, r := range rows {
		if int(r) != i {
			return expr.TakeRecord(rec, rows, s.mem)
		}
	}
	rec.Retain()
	return rec, nil
}

func (s *Store) place(p place) int32 {
	if n := len(s.free); n > 0 {
		id := s.free[n-1]
		s.free = s.free[:n-1]
		s.where.set(id, p)
		return id
	}
	return s.where.add(p)
}

// Remove forgets the row id. Its chunk goes once none of its rows is kept;
// the chunks are compacted once most of what they hold is gone.
func (s *Store) Remove(id int32) {
	p := s.where.at(id)
	s.where.set(id, place{chunk: -1})
	s.free = append(s.free, id)
	s.kept--
	if s.live[p.chunk]--; s.live[p.chunk] == 0 {
		s.dropChunk(int(p.chunk))
	}
}

// dropChunk lets chunk c go, none of its rows kept.
func (s *Store) dropChunk(c int) {
	if s.budget != nil && s.disk[c] != nil {
		s.held -= s.disk[c].n
		s.fileDead += s.disk[c].bytes // until Compact writes a new file
		s.disk[c] = nil
		return
	}
	s.held -= int(s.chunks[c].NumRows())
	s.chunks[c].Release()
	s.chunks[c] = nil
	if s.budget != nil {
		s.budget.used.Add(-s.bytes[c])
		s.bytes[c] = 0
	}
}

// RemoveAll removes each of ids in turn, as Remove does, with a chunk's
// count lowered once per run of ids in it: the count lowered row by row
// was most of the cost of removing a watermark's rows.
func (s *Store) RemoveAll(ids []int32) {
	s.free = slices.Grow(s.free, len(ids)) // once, not doubling as it goes
	for i := 0; i < len(ids); {
		c := s.where.at(ids[i]).chunk
		j := i
		for ; j < len(ids) && s.where.at(ids[j]).chunk == c; j++ {
			s.where.set(ids[j], place{chunk: -1})
		}
		s.free = append(s.free, ids[i:j]...)
		s.kept -= j - i
		if s.live[c] -= j - i; s.live[c] == 0 {
			s.dropChunk(int(c))
		}
		i = j
	}
}

// Compact copies the kept rows into new chunks when the chunks hold more
// than twice as many rows, or the spill file is mostly chunks gone, so
// memory and the file follow what is kept. Ids stay. The copies are made
// compactRows at a time, each spilled as the budget asks before the next
// is made, so spilled rows are not all brought back into memory at once.
func (s *Store) Compact() error {
	if s.held <= 2*s.kept+1024 && (s.file == nil || s.fileDead <= s.file.size/2+minDeadBytes) {
		return nil
	}
	ids := s.keptIDs()
	old, oldFile := len(s.chunks), s.file
	s.file, s.oldest = nil, old // new spills go to a new file
	for from := 0; from < len(ids); from += compactRows {
		part := ids[from:min(from+compactRows, len(ids))]
		rows, err := s.Gather(part)
		if err != nil {
			return err
		}
		c := s.appendChunk(rows, len(part))
		for r, id := range part {
			s.where.set(id, place{chunk: c, row: int32(r)})
		}
		if err := s.account(c); err != nil {
			return err
		}
	}
	for c := range old {
		if s.live[c] > 0 {
			s.dropChunk(c)
		}
	}
	s.chunks, s.live = s.chunks[old:], s.live[old:]
	if s.budget != nil {
		s.bytes, s.disk = s.bytes[old:], s.disk[old:]
	}
	s.oldest -= old
	for _, id := range ids {
		p := s.where.at(id)
		s.where.set(id, place{chunk: p.chunk - int32(old), row: p.row})
	}
	s.held = len(ids)
	s.fileDead = 0
	return oldFile.close()
}

// minDeadBytes is how much of a spill file may be dead before Compact
// rewrites it whatever the share (a variable for the tests).
var minDeadBytes int64 = 64 << 20

// compactRows is how many rows a chunk Compact makes holds.
const compactRows = 1 << 16

// keptIDs lists the ids of the kept rows, in order.
func (s *Store) keptIDs() []int32 {
	ids := make([]int32, 0, s.kept)
	for id := range int32(s.where.len()) {
		if s.where.at(id).chunk >= 0 {
			ids = append(ids, id)
		}
	}
	return ids
}

// Gather returns a new record of the rows ids, in that order.
func (s *Store) Gather(ids []int32) (arrow.RecordBatch, error) { return s.GatherWith(nil, ids) }

// GatherWith is Gather where a negative ref -(row+1) names row row of
// batch (of the store's schema) rather than a kept row: an operator emits
// a batch's rows without keeping them first.
func (s *Store) GatherWith(batch arrow.RecordBatch, refs []int32) (arrow.RecordBatch, error) {
	cols, err := s.GatherColumnsWith(batch, refs, nil)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(s.schema, cols, int64(len(refs))), nil
}

// GatherColumnsWith is GatherWith of the columns which (every column when
// nil), in that order: a join's residual condition over pairs reads a
// column or two of rows kept whole.
func (s *Store) GatherColumnsWith(batch arrow.RecordBatch, refs []int32, which []int) ([]arrow.Array, error) {
	if which == nil {
		which = s.all
	}
	if len(refs) == 0 {
		all := emptyColumns(s.schema, s.out)
		cols := make([]arrow.Array, len(which))
		for i, c := range which {
			all[c].Retain()
			cols[i] = all[c]
		}
		for _, c := range all {
			c.Release()
		}
		return cols, nil
	}
	// the chunks the rows come from, numbered 0, 1, ... as they come: most
	// chunks hold no row asked for, and the gather reads each one's
	// buffers once (a slot per chunk, the batch's last)
	s.slot = growInt32s(s.slot, len(s.chunks)+1)
	batchChunk := int32(len(s.chunks))
	src, places := s.src[:0], s.places[:0]
	for _, ref := range refs {
		p := place{chunk: batchChunk, row: -ref - 1}
		if ref >= 0 {
			p = s.where.at(ref)
		}
		k := s.slot[p.chunk]
		if k == 0 {
			switch {
			case p.chunk == batchChunk:
				src = append(src, batch)
			case s.chunks[p.chunk] == nil: // spilled: read back below
				s.loads = append(s.loads, load{chunk: p.chunk, src: int32(len(src))})
				src = append(src, nil)
			default:
				src = append(src, s.chunks[p.chunk])
			}
			k = int32(len(src))
			s.slot[p.chunk] = k
		}
		places = append(places, place{chunk: k - 1, row: p.row})
	}
	clear(s.slot)
	if len(s.loads) > 0 {
		defer s.releaseLoads()
		if err := s.loadSpilled(src, places, which); err != nil {
			clear(src)
			s.src, s.places = src[:0], places[:0]
			return nil, err
		}
	}
	// runs of consecutive rows of one chunk: a watermark's rows come in
	// order, and a run is copied with one copy per column
	runs := s.runs[:0]
	for _, p := range places {
		if k := len(runs) - 1; k >= 0 && runs[k].chunk == p.chunk && runs[k].row+runs[k].n == p.row {
			runs[k].n++
			continue
		}
		runs = append(runs, run{chunk: p.chunk, row: p.row, n: 1})
	}
	s.runs = runs
	if 4*len(runs) > len(places) {
		// short runs: value by value is faster than a copy per run
		runs = nil
	}
	cols := make([]arrow.Array, len(which))
	defer func() {
		clear(src) // keeps no batch alive
		s.src, s.places = src[:0], places[:0]
	}()
	for i, c := range which {
		col, err := s.gatherColumn(src, c, places, runs)
		if err != nil {
			for _, c := range cols[:i] {
				c.Release()
			}
			return nil, err
		}
		cols[i] = col
	}
	return cols, nil
}

// Release drops every chunk (and so every row), and the spill file.
func (s *Store) Release() {
	for c, ch := range s.chunks {
		if ch != nil {
			ch.Release()
			if s.budget != nil {
				s.budget.used.Add(-s.bytes[c])
			}
		}
	}
	s.chunks, s.live = nil, nil
	s.bytes, s.disk, s.oldest, s.fileDead = nil, nil, 0, 0
	s.file.close()
	s.file = nil
}

func emptyColumns(schema *arrow.Schema, mem memory.Allocator) []arrow.Array {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	rec := b.NewRecordBatch()
	defer rec.Release()
	cols := make([]arrow.Array, rec.NumCols())
	for i := range cols {
		cols[i] = rec.Column(i)
		cols[i].Retain()
	}
	return cols
}

// Schema is the schema of the rows kept.
func (s *Store) Schema() *arrow.Schema { return s.schema }

// Holds reports whether id names a kept row.
func (s *Store) Holds(id int32) bool {
	return id >= 0 && int(id) < s.where.len() && s.where.at(id).chunk >= 0
}

func growInt32s(b []int32, n int) []int32 {
	for len(b) < n {
		b = append(b, 0)
	}
	return b
}
