package joinop

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/intkeys"
)

// keyLog is the rows a side keeps without a key group or an entry: their
// ids and keys in arrival order. A side whose rows are only ever looked
// up by key (one integer key, append-only, no outer padding nor match
// counts, no state TTL) logs its rows so while the other side rarely or
// never probes them: Nexmark q7 keeps every bid for the maximum of its
// window, which comes at the window's end, and numbering each bid's price
// and linking its entry was three fifths of the join's CPU and most of
// its heap (from 0.91M to 2.3M events per CPU-second, 1198 to 486 MiB).
//
// A probe of the other side scans the log for its batch's keys and
// indexes the rows it finds (promote), in their order, at the end of
// their groups: a logged row came after every indexed row of its side,
// so each group stays in arrival order. Once probes have scanned the log
// scanBudget times over, its rows are all indexed (indexAll) and the
// side indexes its rows as they come from then on; so too once probes
// have indexed half the rows logged (a log of rows the other side mostly
// joins saves nothing: q4's auctions, each probed by its bids).
type keyLog struct {
	on       bool          // rows of the side go to the log
	keys     logKeys       // by logged row
	ids      logIDs        // by logged row: its row id, -1 once indexed
	live     int           // logged rows not indexed
	appended int64         // rows ever logged
	scanned  int64         // logged rows probes have scanned
	promoted int64         // logged rows probes have indexed
	budget   int64         // scans of the log before it is indexed
	probe    intkeys.Index // the probing batch's keys, reused
}

// scanBudget is how many times over probes scan a log before its rows are
// indexed: a scan costs a few nanoseconds a row, indexing a row a few
// hundred (q7's bids: the key map's insert and the entry's link).
var scanBudget int64 = 8

// minLogged is how many rows a side logs before the share of them probes
// indexed may end its log.
const minLogged = 4096

// append logs a row stored as id.
func (l *keyLog) append(key int64, id int32) {
	l.keys.append(key)
	l.ids.append(id)
	l.live++
	l.appended++
}

// appendAll logs rows stored as ids, of keys keys.
func (l *keyLog) appendAll(keys []int64, ids []int32) {
	l.keys.appendAll(keys)
	l.ids.appendAll(ids)
	l.live += len(ids)
	l.appended += int64(len(ids))
}

// reset empties the log (its rows indexed).
func (l *keyLog) reset() {
	l.keys.reset()
	l.ids.reset()
	l.live = 0
}

// each calls f with every logged row not indexed, in arrival order.
func (l *keyLog) each(f func(row int, key int64, id int32)) {
	for p := range l.ids.pages {
		pg, keys := &l.ids.pages[p], &l.keys.pages[p]
		for k := range min(logPage, l.ids.n-p*logPage) {
			if id := pg.id(k); id >= 0 {
				f(p*logPage+k, keys.key(k), id)
			}
		}
	}
}

// compact drops the indexed rows from the log when they are most of it.
func (l *keyLog) compact() {
	if l.live >= l.ids.n/2 {
		return
	}
	var keys logKeys
	var ids logIDs
	l.each(func(_ int, key int64, id int32) {
		keys.append(key)
		ids.append(id)
	})
	l.keys, l.ids = keys, ids
}

// readKeys sets j.keyVals to the key of each row of rec, a batch of side
// input, and j.keyNulls to its key column when it has NULLs.
func (j *regularJoin) readKeys(input int, rec arrow.RecordBatch) {
	col := rec.Column(j.keys.cols[input][0])
	j.keyVals = j.keyVals[:0]
	switch a := col.(type) {
	case *array.Int64:
		j.keyVals = append(j.keyVals, a.Int64Values()...)
	case *array.Int32:
		for _, v := range a.Int32Values() {
			j.keyVals = append(j.keyVals, int64(v))
		}
	}
	j.keyNulls = nil
	if col.NullN() > 0 {
		j.keyNulls = col
	}
}

// logRow keeps batch row i of side s: logged, or when its key is NULL (it
// matches nothing) an entry of group 0.
func (j *regularJoin) logRow(s *side, i int) {
	if j.keyNulls != nil && j.keyNulls.IsNull(i) {
		s.newEntry(0, int32(i), 0, j.now)
		return
	}
	s.pending = append(s.pending, int32(i))
	s.pendEnt = append(s.pendEnt, -1)
	s.pendKey = append(s.pendKey, j.keyVals[i])
}

// logBatch keeps every row of rec, a batch of side input, when the other
// side holds no row: nothing to probe, nothing to emit. Without a NULL
// key every row is logged, so the batch is kept whole and its keys
// logged as they are, a batch at a time (a row at a time, with the list
// of rows to keep, was 0.1 s of Nexmark q7_tvf's 9.2M bids).
func (j *regularJoin) logBatch(input int, rec arrow.RecordBatch) error {
	s := j.sides[input]
	j.readKeys(input, rec)
	if j.keyNulls == nil && len(s.pending) == 0 && s.residual == nil {
		return s.storeLogged(rec, j.keyVals)
	}
	j.sides[0].growGroups(j.keys.groups)
	j.sides[1].growGroups(j.keys.groups)
	for i := range int(rec.NumRows()) {
		j.logRow(s, i)
	}
	return s.storePending(rec)
}

// promoteLogged indexes side o's logged rows that rec, a batch of the
// other input, probes: those of its keys, or all of them once the log's
// scans are spent.
func (j *regularJoin) promoteLogged(o *side, input int, rec arrow.RecordBatch) error {
	l := &o.log
	if l.live == 0 {
		return nil
	}
	if l.scanned+int64(l.ids.n) > l.budget*l.appended {
		return j.indexAll(o)
	}
	l.probe.Reset()
	col := rec.Column(j.keys.cols[input][0])
	nulls := col.NullN() > 0
	var first int64 // the probe's first key
	switch a := col.(type) {
	case *array.Int64:
		for i, v := range a.Int64Values() {
			if !nulls || !col.IsNull(i) {
				if _, found := l.probe.GetOrPut(v, 0); !found && l.probe.Len() == 1 {
					first = v
				}
			}
		}
	case *array.Int32:
		for i, v := range a.Int32Values() {
			if !nulls || !col.IsNull(i) {
				if _, found := l.probe.GetOrPut(int64(v), 0); !found && l.probe.Len() == 1 {
					first = int64(v)
				}
			}
		}
	}
	if l.probe.Len() == 0 {
		return nil
	}
	l.scanned += int64(l.ids.n)
	if l.probe.Len() == 1 {
		j.promoteKey(o, first)
	} else {
		j.promoteProbed(o)
	}
	if 2*l.promoted > l.appended && l.appended >= minLogged {
		return j.indexAll(o)
	}
	l.compact()
	return nil
}

// promoteKey indexes side o's logged rows of key key: a probe of one key
// (Nexmark q7_tvf's window maximum) compares the keys with it rather than
// looking each up in the probe's keys, 0.03 of the 0.04 s its scan of
// 9.2M bids took.
func (j *regularJoin) promoteKey(o *side, key int64) {
	l := &o.log
	narrow := key >= math.MinInt32 && key <= math.MaxInt32
	for p := range l.ids.pages {
		pg, keys := &l.ids.pages[p], &l.keys.pages[p]
		n := min(logPage, l.ids.n-p*logPage)
		switch {
		case keys.wide != nil:
			for k, v := range keys.wide[:n] {
				if v == key {
					if id := pg.id(k); id >= 0 {
						j.promote(o, p*logPage+k, key, id)
					}
				}
			}
		case narrow:
			for k, v := range keys.narrow[:n] {
				if v == int32(key) {
					if id := pg.id(k); id >= 0 {
						j.promote(o, p*logPage+k, key, id)
					}
				}
			}
		}
	}
}

// promoteProbed indexes side o's logged rows of the probe's keys.
func (j *regularJoin) promoteProbed(o *side) {
	l := &o.log
	// each's loop, the probe inline rather than a call a row
	for p := range l.ids.pages {
		pg, keys := &l.ids.pages[p], &l.keys.pages[p]
		for k := range min(logPage, l.ids.n-p*logPage) {
			key := keys.key(k)
			if _, ok := l.probe.Get(key); ok {
				if id := pg.id(k); id >= 0 {
					j.promote(o, p*logPage+k, key, id)
				}
			}
		}
	}
}

// promote indexes logged row row of side o: an entry at the end of its
// key's group.
func (j *regularJoin) promote(o *side, row int, key int64, id int32) {
	g := j.keys.groupOf(key)
	j.sides[0].growGroups(j.keys.groups)
	j.sides[1].growGroups(j.keys.groups)
	e := o.link(g, 0, 0)
	o.at(e).id = id
	o.log.ids.set(row, -1)
	o.log.live--
	o.log.promoted++
}

// indexAll indexes every row side o logged, in order, and ends its log
// (and so keeps its residual rows).
func (j *regularJoin) indexAll(o *side) error {
	o.log.each(func(row int, key int64, id int32) {
		j.promote(o, row, key, id)
	})
	o.log.reset()
	o.log.on = false
	return o.keepResidual()
}
