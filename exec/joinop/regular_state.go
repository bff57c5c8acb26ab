package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/exec/rowstore"
)

// entry is a row one input keeps (Flink's record state of a join key),
// linked in its key group in arrival order. Equal rows of an update
// stream are one entry with a count of copies, so a retraction finds the
// row it takes back; an append-only input's rows are never retracted and
// each is an entry of its own. What only some sides need is kept beside
// the entries, in entryColumns: the copies (an update stream), the
// matches of the other side (an outer side, a SEMI or ANTI join's left)
// and the last write (state TTL). One struct of all of them was 48 bytes
// an entry, as much as Nexmark q4's kept bid; the links alone are 16.
type entry struct {
	id         int32 // row in the side's store; -1 while added in this batch
	group      int32 // its key's group; -1 for a free entry
	prev, next int32 // its group's entries in the order they were stored
}

// entryColumn is a value per entry that a side keeps only when it needs
// it, in pages as the entries.
type entryColumn[T int32 | int64] struct {
	used  bool
	pages [][]T
}

func (c *entryColumn[T]) at(e int32) *T { return &c.pages[e/entryPage][e%entryPage] }

func (c *entryColumn[T]) grow() {
	if c.used {
		c.pages = append(c.pages, make([]T, entryPage))
	}
}

// side is one input's state: its rows' data columns in a row store,
// their entries linked per key group in arrival order.
type side struct {
	data   []int         // the input's data columns
	schema *arrow.Schema // of data
	update bool          // an update stream (its first column the row kind)
	counts bool          // entries count their matches
	store  *rowstore.Store
	// the residual condition's columns apart, when it reads some only
	residual *residualRows
	// residual while the side logs its rows, not kept yet: probes of a
	// log are rare, and its rows' columns are gathered from the store
	// (residualCols) until the log ends (keepResidual)
	deferred *residualRows
	// the columns the residual condition reads of rows kept whole (a
	// side of fixed widths), gathered alone for it
	residualCols []int
	pages        [][]entry          // the entries, entryPage to a page
	copies       entryColumn[int32] // an update stream's: copies of the row
	matches      entryColumn[int64] // a counting side's: matching rows of the other side
	written      entryColumn[int64] // with a state TTL: processing time last written
	n            int32              // entries made
	free         []int32            // free entries
	freed        []int32            // entries freed in this batch: reused from the next
	head         []int32            // by group: its first and last entry, -1 none
	tail         []int32
	size         []int32 // by group: its entries
	// by group: the columns the residual reads of a group of many rows
	// (regular_hot.go); nil when the residual is not evaluated so
	hot     map[int32]*hotGroup
	emptied []int32 // groups whose last row on this side went in this batch

	// update streams: entries by their row's encoded data columns
	rowKeys  rankop.RowKeys
	idents   map[string]int32
	identKey []string // by entry
	bufs     [][]byte

	// rows logged rather than indexed (regular_log.go)
	log keyLog

	// rows added in this batch, stored at its end in one take
	pending []int32 // batch rows
	pendEnt []int32 // their entries, -1 for a row logged
	pendKey []int64 // the keys of the rows logged, in order
	ids     []int32 // their row ids
}

func newSide(s *arrow.Schema, counts, ttl bool, mem memory.Allocator) *side {
	sd := &side{data: DataColumns(s), update: IsUpdateStream(s), counts: counts}
	sd.copies.used, sd.matches.used, sd.written.used = sd.update, counts, ttl
	fields := make([]arrow.Field, len(sd.data))
	for i, c := range sd.data {
		fields[i] = s.Field(c)
	}
	sd.schema = arrow.NewSchema(fields, nil)
	sd.store = rowstore.New(sd.schema, mem)
	if sd.update {
		sd.rowKeys = rankop.NewRowKeys(sd.data)
		sd.idents = map[string]int32{}
	}
	return sd
}

// entryPage is how many entries a page holds: entries in one slice were
// copied as it grew, a third of the CPU of joining 2M bids with their
// auctions.
const entryPage = 4096

// at is entry e.
func (s *side) at(e int32) *entry { return &s.pages[e/entryPage][e%entryPage] }

// count is entry e's copies of its row.
func (s *side) count(e int32) int32 {
	if !s.copies.used {
		return 1
	}
	return *s.copies.at(e)
}

// assoc is entry e's count of matching rows of the other side (a
// counting side's only).
func (s *side) assoc(e int32) *int64 { return s.matches.at(e) }

// assocOf is assoc, 0 on a side that does not count.
func (s *side) assocOf(e int32) int64 {
	if !s.matches.used {
		return 0
	}
	return *s.matches.at(e)
}

// touch notes that entry e was written at processing time now.
func (s *side) touch(e int32, now int64) {
	if s.written.used {
		*s.written.at(e) = now
	}
}

// writtenAt is when entry e was last written, 0 without a state TTL.
func (s *side) writtenAt(e int32) int64 {
	if !s.written.used {
		return 0
	}
	return *s.written.at(e)
}

// holdsNone reports whether the side keeps no row, indexed or logged.
func (s *side) holdsNone() bool {
	return int(s.n) == len(s.free)+len(s.freed) && s.log.live == 0
}

// growGroups makes room for groups 0..n-1.
func (s *side) growGroups(n int32) {
	for int32(len(s.head)) < n {
		s.head = append(s.head, -1)
		s.tail = append(s.tail, -1)
		s.size = append(s.size, 0)
	}
}

// newEntry appends an entry of batch row row to group g's list.
func (s *side) newEntry(g int32, row int32, assoc, now int64) int32 {
	e := s.link(g, assoc, now)
	s.pending = append(s.pending, row)
	s.pendEnt = append(s.pendEnt, e)
	return e
}

// link appends a new entry, its row not stored yet (id -1), to group g's
// list.
func (s *side) link(g int32, assoc, now int64) int32 {
	var e int32
	if n := len(s.free); n > 0 {
		e = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		if s.n%entryPage == 0 {
			s.pages = append(s.pages, make([]entry, entryPage))
			s.copies.grow()
			s.matches.grow()
			s.written.grow()
		}
		e = s.n
		s.n++
	}
	*s.at(e) = entry{id: -1, group: g, prev: s.tail[g], next: -1}
	if s.copies.used {
		*s.copies.at(e) = 1
	}
	if s.matches.used {
		*s.matches.at(e) = assoc
	}
	s.touch(e, now)
	if t := s.tail[g]; t >= 0 {
		s.at(t).next = e
	} else {
		s.head[g] = e
	}
	s.tail[g] = e
	s.size[g]++
	return e
}

// remove forgets entry e and its row; the entry is reused from the next
// batch on (rows of this one may still name it).
func (s *side) remove(e int32) {
	en := s.at(e)
	if en.prev >= 0 {
		s.at(en.prev).next = en.next
	} else {
		s.head[en.group] = en.next
	}
	if en.next >= 0 {
		s.at(en.next).prev = en.prev
	} else {
		s.tail[en.group] = en.prev
	}
	s.size[en.group]--
	if s.hot != nil {
		s.dropHot(en.group)
	}
	if s.head[en.group] < 0 {
		s.emptied = append(s.emptied, en.group)
	}
	if en.id >= 0 {
		s.store.Remove(en.id)
		if s.residual != nil {
			s.residual.store.Remove(en.id)
		}
	}
	if s.idents != nil {
		delete(s.idents, s.identKey[e])
		s.identKey[e] = ""
	}
	en.group = -1
	if s.copies.used {
		*s.copies.at(e) = 0
	}
	s.freed = append(s.freed, e)
}

// setIdent files entry e under its row's encoded data columns.
func (s *side) setIdent(e int32, key []byte) {
	for len(s.identKey) <= int(e) {
		s.identKey = append(s.identKey, "")
	}
	k := string(key)
	s.identKey[e] = k
	s.idents[k] = e
}

// storeLogged keeps every row of data, logged under keys: the store
// takes the batch whole (a side logging its rows has no residual rows
// of its own, nor rows pending).
func (s *side) storeLogged(data arrow.RecordBatch, keys []int64) error {
	var err error
	if s.ids, err = s.store.AddAll(data, s.ids[:0]); err != nil {
		return err
	}
	s.log.appendAll(keys, s.ids)
	s.free = append(s.free, s.freed...)
	s.freed = s.freed[:0]
	return nil
}

// storePending keeps the rows added in this batch (those still kept) in
// one take of data, and logs those logged.
func (s *side) storePending(data arrow.RecordBatch) error {
	rows, ents := s.pending[:0], s.pendEnt[:0]
	// an entry is listed once: entries freed in this batch are reused
	// from the next on
	for i, e := range s.pendEnt {
		if e < 0 {
			rows, ents = append(rows, s.pending[i]), append(ents, e)
		} else if en := s.at(e); en.group >= 0 && en.id < 0 {
			rows, ents = append(rows, s.pending[i]), append(ents, e)
		}
	}
	if len(rows) > 0 {
		var err error
		if s.ids, err = s.store.Add(data, rows, s.ids[:0]); err != nil {
			return err
		}
		if s.residual != nil {
			if err := s.residual.add(data, rows, s.ids); err != nil {
				return err
			}
		}
		if len(s.pendKey) == len(ents) {
			// every row logged (a side the other has not probed): the
			// log's columns appended a run at a time
			s.log.appendAll(s.pendKey, s.ids)
		} else {
			logged := 0
			for i, e := range ents {
				if e < 0 {
					s.log.append(s.pendKey[logged], s.ids[i])
					logged++
					continue
				}
				s.at(e).id = s.ids[i]
			}
		}
	}
	s.pending, s.pendEnt, s.pendKey = s.pending[:0], s.pendEnt[:0], s.pendKey[:0]
	s.free = append(s.free, s.freed...)
	s.freed = s.freed[:0]
	return nil
}
