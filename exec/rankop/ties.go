package rankop

import (
	"bytes"
	"sort"

	"github.com/wsql/wsql/windowop"
)

// topNTies ranks row i (k) in its partition by RANK or DENSE_RANK, where
// equal rows share a rank. The partition keeps every row ranked at most
// End, in order (equal rows by arrival), and p.top is the rank of its
// last one. A new row takes the rank of the rows equal to it, or the one
// after the rows before it; the rows after it move one rank down (with
// DENSE_RANK only when no row was equal to it), and those moved past End
// leave for good: on an append-only input ranks only grow. The changes:
// each row that leaves the range emits -D (first), the new row +I, then,
// in rank order, each kept row whose rank changed -U with its old rank
// and +U with its new one when the rank is in the output, and +I when
// its new rank enters a range that starts past 1.
func (r *Rank) topNTies(p *partition, k kept, i int) {
	start, end := r.cfg.Start, r.cfg.End
	dense := r.cfg.Type == DenseRank
	n := len(p.rows)
	if n > 0 && bytes.Compare(k.key, p.rows[n-1].key) > 0 {
		// after every kept row: the commonest case once a partition
		// is full
		rank := int64(n) + 1
		if dense {
			rank = p.top + 1
		}
		if rank > end {
			return
		}
	}
	lo := sort.Search(n, func(j int) bool { return bytes.Compare(p.rows[j].key, k.key) >= 0 })
	pos := lo
	for pos < n && bytes.Equal(p.rows[pos].key, k.key) {
		pos++
	}
	tie := pos > lo
	// the new row's rank: that of the rows equal to it, or one past
	// the rows before it
	rank := int64(lo) + 1
	if dense {
		rank = 1 // one past the distinct keys before it
		for j := 0; j < lo; j++ {
			if j == 0 || !bytes.Equal(p.rows[j].key, p.rows[j-1].key) {
				rank++
			}
		}
	}
	if rank > end {
		return
	}
	k.key = append([]byte(nil), k.key...)
	r.enter = append(r.enter, int32(i))
	p.rows = append(p.rows, kept{})
	copy(p.rows[pos+1:], p.rows[pos:])
	p.rows[pos] = k
	shift := int64(1)
	if dense && tie {
		shift = 0
	}
	withRank := r.cfg.RankName != ""
	// the rows after the new one: their old ranks, and where the ranks
	// pass End
	old, cut, top := rank, len(p.rows), rank
	changed := r.ties[:0]
	for j := pos + 1; j < len(p.rows); j++ {
		if !bytes.Equal(p.rows[j].key, p.rows[j-1].key) {
			if dense {
				old++
				if j == pos+1 && !tie {
					old = rank // the first group after a new key had its rank
				}
			} else {
				old = int64(j) // j rows before it, one of them new
			}
		}
		if cut == len(p.rows) && old+shift > end {
			cut = j
		}
		if j >= cut {
			if old >= start {
				r.emits = append(r.emits, emission{kind: windowop.Delete, ref: p.rows[j].id, rank: old})
			}
			r.evicted = append(r.evicted, p.rows[j].id)
			continue
		}
		top = old + shift
		if shift == 0 || old+shift < start {
			continue
		}
		changed = append(changed, tieChange{j: int32(j), old: old})
	}
	p.rows = p.rows[:cut]
	if cut-1 > pos {
		p.top = top
	} else if pos == cut-1 {
		p.top = rank
	}
	if rank >= start {
		r.emits = append(r.emits, emission{kind: windowop.Insert, ref: k.id, rank: rank})
	}
	for _, c := range changed {
		id := p.rows[c.j].id
		switch {
		case c.old < start:
			r.emits = append(r.emits, emission{kind: windowop.Insert, ref: id, rank: c.old + shift})
		case withRank:
			r.emits = append(r.emits, emission{kind: windowop.UpdateBefore, ref: id, rank: c.old},
				emission{kind: windowop.UpdateAfter, ref: id, rank: c.old + shift})
		}
	}
	r.ties = changed[:0]
}

// tieChange is a kept row whose rank grows: its place and old rank.
type tieChange struct {
	j   int32
	old int64
}

// recountTop sets p.top, the rank of p's last row, after a restore.
func (r *Rank) recountTop(p *partition) {
	p.top = 0
	for j := range p.rows {
		if j == 0 || !bytes.Equal(p.rows[j].key, p.rows[j-1].key) {
			if r.cfg.Type == DenseRank {
				p.top++
			} else {
				p.top = int64(j) + 1
			}
		}
	}
}
