package rankop

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/windowop"
)

// fixedRow is a kept row of a Top-N by ROW_NUMBER over one sort column
// of eight bytes (BIGINT, INT, DOUBLE, TIMESTAMP, ...), whose encoded key
// is a NULL mark and at most eight bytes: the key held in the row, its
// mark in hi and its bytes (none for NULL: 0) in lo, so (hi, lo) orders
// rows as the encoded keys do. 16 bytes a row, where a kept and its key
// took 49 (Nexmark q19's 4.4M rows kept: 280 MB to 70).
type fixedRow struct {
	lo uint64
	id int32
	hi uint8
}

// fixedTopN reports whether the rank keeps its rows as fixedRows.
func (c Config) fixedTopN() bool {
	if c.Mode != TopN || c.Type != RowNumber || len(c.Order) != 1 {
		return false
	}
	switch c.Input.Field(c.Order[0].Index).Type.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.DATE32, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION, arrow.INTERVAL_MONTHS,
		arrow.FLOAT32, arrow.FLOAT64:
		return true // keyEncoder writes each as a mark and 8 bytes
	}
	return false
}

// fixedKey is the fixedRow of an encoded key (a mark, then 8 bytes or,
// for NULL, none).
func fixedKey(key []byte, id int32) fixedRow {
	k := fixedRow{hi: key[0], id: id}
	if len(key) == 9 {
		k.lo = binary.BigEndian.Uint64(key[1:])
	}
	return k
}

// encoded is the row's key as keyEncoder wrote it.
func (k fixedRow) encoded(nullMark byte) []byte {
	if k.hi == nullMark {
		return []byte{k.hi}
	}
	return binary.BigEndian.AppendUint64([]byte{k.hi}, k.lo)
}

// nullMark is the mark of a NULL key: 0, inverted when descending.
func (c Config) nullMark() byte {
	if c.Order[0].Desc {
		return 0xff
	}
	return 0
}

// before reports whether a sorts before b.
func (a fixedRow) before(b fixedRow) bool { return a.hi < b.hi || a.hi == b.hi && a.lo < b.lo }

// topNFixed is topN over fixedRows, for row i (k) of partition pid.
func (r *Rank) topNFixed(pid int32, k fixedRow, i int) {
	end := int(r.cfg.End)
	rows := r.fixed[pid]
	if len(rows) >= end && !k.before(rows[end-1]) {
		return // the commonest case once a partition is full: one compare
	}
	// after the rows equal to it (ties by arrival)
	pos, hi := 0, len(rows)
	for pos < hi {
		if m := int(uint(pos+hi) >> 1); k.before(rows[m]) {
			hi = m
		} else {
			pos = m + 1
		}
	}
	if pos >= end {
		return // ranks past End
	}
	r.enter = append(r.enter, int32(i))
	old := len(rows)
	var pushed fixedRow
	if old >= end {
		pushed = rows[end-1]
	} else {
		if cap(rows) == 0 && end <= exactRows {
			rows = make([]fixedRow, 0, end)
		}
		rows = append(rows, fixedRow{})
		r.fixed[pid] = rows
	}
	// when full, the last row falls off (it is pushed)
	copy(rows[pos+1:], rows[pos:])
	rows[pos] = k
	if r.cfg.RankName == "" && r.cfg.Start == 1 {
		if old >= end {
			r.emits = append(r.emits, emission{kind: windowop.Delete, ref: pushed.id})
			r.evicted = append(r.evicted, pushed.id)
		}
		r.emits = append(r.emits, emission{kind: windowop.Insert, ref: k.id})
		return
	}
	for j := pos; j < len(rows); j++ {
		rank := int64(j + 1)
		if rank < r.cfg.Start {
			continue
		}
		if j < old {
			before := pushed.id // the row that was at rank End
			if j+1 < len(rows) {
				before = rows[j+1].id
			}
			r.emits = append(r.emits, emission{kind: windowop.UpdateBefore, ref: before, rank: rank})
			r.emits = append(r.emits, emission{kind: windowop.UpdateAfter, ref: rows[j].id, rank: rank})
		} else {
			r.emits = append(r.emits, emission{kind: windowop.Insert, ref: rows[j].id, rank: rank})
		}
	}
	if old >= end {
		r.evicted = append(r.evicted, pushed.id)
	}
}
