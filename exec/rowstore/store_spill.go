package rowstore

import (
	"slices"
)

// SpillTo makes the store count its rows in memory in b and, once b is
// exceeded, write its oldest chunks to a spill file (the store's own,
// removed when it is released). A store of a type whose values a row's
// position does not find (LIST, MAP, dictionaries) counts but never spills.
func (s *Store) SpillTo(b *Budget) error {
	if s.budget != nil || b == nil {
		return nil
	}
	s.budget = b
	s.canSpill = schemaSpillable(s.schema)
	s.bytes = make([]int64, len(s.chunks))
	s.disk = make([]*spilledChunk, len(s.chunks))
	for c := range s.chunks {
		if s.chunks[c] != nil {
			if err := s.account(int32(c)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Spilled reports how many of the store's chunks are in its spill file.
func (s *Store) Spilled() int {
	n := 0
	for _, d := range s.disk {
		if d != nil {
			n++
		}
	}
	return n
}

// account counts chunk c in the budget and spills while it is exceeded.
func (s *Store) account(c int32) error {
	if s.budget == nil {
		return nil
	}
	s.bytes[c] = chunkBytes(s.chunks[c])
	s.budget.used.Add(s.bytes[c])
	if !s.canSpill || !s.budget.over() {
		return nil
	}
	return s.spillOldest()
}

// spillOldest writes the store's oldest chunks in memory to its spill
// file until the budget is met: the oldest rows are those read least (a
// join's bids are read again only when a late auction arrives; a Top-N's
// old rows were pushed out of its top).
func (s *Store) spillOldest() error {
	for ; s.oldest < len(s.chunks) && s.budget.over(); s.oldest++ {
		c := s.oldest
		if s.chunks[c] == nil {
			continue
		}
		if s.file == nil {
			f, err := openSpillFile(s.budget)
			if err != nil {
				return err
			}
			s.file = f
		}
		sc, err := spillChunk(s.file, s.chunks[c], &s.writer)
		if err != nil {
			return err
		}
		s.chunks[c].Release()
		s.chunks[c], s.disk[c] = nil, sc
		s.budget.used.Add(-s.bytes[c])
		s.bytes[c] = 0
	}
	return nil
}

// load is a spilled chunk a gather reads: the rows it asks for, sorted,
// and those rows read back.
type load struct {
	chunk, src int32
	rows       []int32
	read       *loadedRows
}

// loadSpilled reads back the rows places name of the spilled chunks
// (s.loads, a nil src each), of the columns which, and renumbers places
// to them.
func (s *Store) loadSpilled(src []columnSource, places []place, which []int) error {
	loadOf := growInt32s(s.slot, len(src)) // by src: its load + 1
	for k := range s.loads {
		loadOf[s.loads[k].src] = int32(k + 1)
	}
	for _, p := range places {
		if k := loadOf[p.chunk]; k > 0 {
			s.loads[k-1].rows = append(s.loads[k-1].rows, p.row)
		}
	}
	for k := range s.loads {
		l := &s.loads[k]
		slices.Sort(l.rows)
		l.rows = slices.Compact(l.rows)
		read, err := s.unspill.load(s.disk[l.chunk], which, l.rows)
		if err != nil {
			clear(loadOf)
			return err
		}
		l.read = read
		src[l.src] = read
	}
	for i, p := range places {
		if k := loadOf[p.chunk]; k > 0 {
			r, _ := slices.BinarySearch(s.loads[k-1].rows, p.row)
			places[i].row = int32(r)
		}
	}
	clear(loadOf)
	s.slot = loadOf
	return nil
}

// releaseLoads drops what loadSpilled read.
func (s *Store) releaseLoads() {
	for k := range s.loads {
		if s.loads[k].read != nil {
			s.loads[k].read.release()
		}
		s.loads[k].read, s.loads[k].rows = nil, s.loads[k].rows[:0]
	}
	s.loads = s.loads[:0]
}
