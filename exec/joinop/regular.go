package joinop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/exec/rowkind"
	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// regularJoin is Flink's StreamingJoinOperator (INNER, LEFT, RIGHT, FULL
// OUTER) and StreamingSemiAntiJoinOperator (SEMI, ANTI): each input's
// rows are kept per join key; a row joins the other input's rows of its
// key for which the residual condition is TRUE, and a retraction takes
// its joined rows back. An outer side's row is emitted padded with NULLs
// while nothing matches it, which needs the count of its matches.
//
// A batch is processed a row at a time in arrival order, so the output
// depends on the rows alone: the other input's state does not change
// within a batch but for match counts, so the candidates of a run of rows
// are found first and the residual evaluated on them at once, then the
// rows are applied in order. A row's matches come in the order their rows
// were stored.
type regularJoin struct {
	cfg        Config
	mem        *recycle.Allocator // the output's and the residual's; the stores keep rows in the operator's
	out        pipeline.Operator
	schema     *arrow.Schema
	joined     *arrow.Schema  // Left's data columns, then Right's: the residual's input
	pairSchema *arrow.Schema  // joined, the columns the residual does not read NULL-typed
	bound      [2]*boundProbe // by probing input: the residual bound to the row (regular_hot_bound.go)
	updates    bool
	semiAnti   bool
	anti       bool
	outer      [2]bool
	keys       *joinKeys
	sides      [2]*side
	stats      Stats
	forwarded  int64 // the last watermark sent on
	clock      rowtime.Clock
	now        int64 // the batch's processing time (state TTL)
	lastSweep  int64
	removedAny bool // rows went in this batch: the stores may compact

	// per batch, reused
	groups  []int32
	pairRow []int32 // candidate pairs: a batch row ...
	pairEnt []int32 // ... and an entry of the other side
	hotRow  []bool  // by batch row: its pairs are the residual's matches already
	hotIDs  []int32
	keep    []bool  // by candidate pair: the residual keeps it
	unsure  []int32 // the candidate pairs the residual is evaluated on
	refs    [2][]int32
	kinds   []windowop.RowKind
	pads    []bool
	// a logging side's batch: its rows' keys, and its key column when it
	// has NULLs (regular_log.go)
	keyVals  []int64
	keyNulls arrow.Array
	outWms   outWatermarks // the output rows' watermarks, those of the rows that made them
}

// maxPairs bounds the candidate pairs found before they are applied: a
// hot key (or a cross join) makes many pairs of one batch.
const maxPairs = 1 << 16

// residualChunk is how many candidate pairs the residual condition is
// evaluated on at once.
const residualChunk = 4096

// outputRows is the size of the batches the join emits.
const outputRows = 4096

// pad marks a side of an output row that is NULLs.
const pad = int32(-1 << 31)

func newRegularJoin(cfg Config, mem memory.Allocator, out pipeline.Operator) (Operator, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	for _, c := range cfg.LeftKeys {
		if err := rankop.CheckKeyType(cfg.Left.Field(c).Type); err != nil {
			return nil, fmt.Errorf("a join on a %s key is not supported yet", cfg.Left.Field(c).Type)
		}
	}
	for _, s := range []*arrow.Schema{cfg.Left, cfg.Right} {
		if !IsUpdateStream(s) {
			continue
		}
		for _, c := range DataColumns(s) {
			if err := rankop.CheckKeyType(s.Field(c).Type); err != nil {
				return nil, fmt.Errorf("a join of an update stream with a %s column is not supported yet", s.Field(c).Type)
			}
		}
	}
	if cfg.Residual != nil && cfg.Residual.DataType().ID() != arrow.BOOL {
		return nil, fmt.Errorf("join: the condition %s is %s, not BOOLEAN", cfg.Residual, cfg.Residual.DataType())
	}
	// The stores keep their rows in mem itself; the output's buffers, and
	// the residual's, come back for the next batch once released
	// downstream (Nexmark q9 gathered 6 GB of output rows into garbage).
	j := &regularJoin{cfg: cfg, mem: recycle.New(mem), out: out, schema: schema, updates: cfg.Updates(),
		semiAnti: cfg.Kind == Semi || cfg.Kind == Anti, anti: cfg.Kind == Anti,
		outer: [2]bool{cfg.Kind.leftOuter(), cfg.Kind.rightOuter()},
		keys:  newJoinKeys(cfg), forwarded: rowtime.MinWatermark, clock: cfg.Clock}
	if j.clock == nil {
		j.clock = rowtime.SystemClock{}
	}
	j.sides[0] = newSide(cfg.Left, j.outer[0] || j.semiAnti, cfg.StateTTL > 0, mem)
	j.sides[1] = newSide(cfg.Right, j.outer[1], cfg.StateTTL > 0, mem)
	for _, s := range j.sides {
		s.store.GatherFrom(j.mem)
	}
	// a side logs its rows when nothing but a probe of their key reads
	// them: no copies to count, no matches, no TTL, one integer key where
	// NULL matches nothing
	logs := j.keys.typed && !j.keys.strTyped && !j.keys.isNullSafe(0) && cfg.StateTTL == 0
	for _, s := range j.sides {
		s.log.on = logs && !s.update && !s.counts
		s.log.budget = scanBudget
	}
	fields := append(append([]arrow.Field{}, j.sides[0].schema.Fields()...), j.sides[1].schema.Fields()...)
	j.joined = arrow.NewSchema(fields, nil)
	j.pairSchema = j.joined
	j.splitResidual(mem)
	j.bindProbes()
	j.setupHot(j.sides[0])
	j.setupHot(j.sides[1])
	if cfg.StateTTL > 0 {
		j.lastSweep = j.clock.Now().UnixMilli()
	}
	return j, nil
}

func (j *regularJoin) Schema() *arrow.Schema { return j.schema }
func (j *regularJoin) Stats() Stats          { return j.stats }

// ProcessBatch is not called on a two-input operator.
func (j *regularJoin) ProcessBatch(pipeline.Batch) error {
	return fmt.Errorf("join: rows come through ProcessInput")
}

// ProcessInput joins a batch of input (0 left, 1 right) row by row.
func (j *regularJoin) ProcessInput(input int, b pipeline.Batch) error {
	if input != 0 && input != 1 {
		return fmt.Errorf("join: no input %d", input)
	}
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	j.stats.RowsIn += int64(n)
	s, o := j.sides[input], j.sides[1-input]
	if s.log.on && o.holdsNone() {
		// no row to join with, none to emit: the rows are only kept
		return j.logBatch(input, rec)
	}
	if j.cfg.StateTTL > 0 {
		j.now = j.clock.Now().UnixMilli()
		if j.now-j.lastSweep >= j.cfg.StateTTL {
			j.sweep()
		}
	}
	data := rec
	if s.update {
		cols := make([]arrow.Array, len(s.data))
		for i, c := range s.data {
			cols[i] = rec.Column(c)
		}
		data = array.NewRecordBatch(s.schema, cols, int64(n))
		defer data.Release()
		for len(s.bufs) < n {
			s.bufs = append(s.bufs, nil)
		}
		s.rowKeys.Encode(rec, s.bufs)
	}
	if err := j.promoteLogged(o, input, rec); err != nil {
		return err
	}
	if s.log.on {
		j.readKeys(input, rec)
		j.groups = j.keys.find(input, rec, j.groups[:0])
	} else {
		j.groups = j.keys.lookup(input, rec, j.groups[:0])
	}
	j.sides[0].growGroups(j.keys.groups)
	j.sides[1].growGroups(j.keys.groups)
	kinds := rowkind.Of(rec)
	for from := 0; from < n; {
		to, err := j.candidates(input, from, n, data)
		if err != nil {
			return err
		}
		if j.cfg.Residual != nil {
			if err := j.filterResidual(input, data); err != nil {
				return err
			}
		}
		if err := j.apply(input, from, to, kinds, data, b.Watermarks); err != nil {
			return err
		}
		if err := j.flush(input, data); err != nil {
			return err
		}
		from = to
	}
	if err := s.storePending(data); err != nil {
		return err
	}
	// a key only retracted (rows not kept) leaves no group behind
	for _, g := range j.keys.fresh {
		if j.keys.inUse[g] && j.sides[0].head[g] < 0 && j.sides[1].head[g] < 0 {
			j.keys.drop(g)
		}
	}
	j.keys.fresh = j.keys.fresh[:0]
	if j.removedAny {
		j.removedAny = false
		j.dropEmptyGroups()
		for _, sd := range j.sides {
			if err := sd.store.Compact(); err != nil {
				return err
			}
			if sd.residual != nil {
				if err := sd.residual.store.Compact(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// dropEmptyGroups forgets the keys whose last row went in this batch (on
// either side) and that neither side holds a row of, so the key index
// follows the state. Not before the batch's end: its rows name their
// groups.
func (j *regularJoin) dropEmptyGroups() {
	for _, s := range j.sides {
		for _, g := range s.emptied {
			if g != 0 && j.keys.inUse[g] && j.sides[0].head[g] < 0 && j.sides[1].head[g] < 0 {
				j.keys.drop(g)
			}
		}
		s.emptied = s.emptied[:0]
	}
}

// candidates lists the pairs of rows from on of the batch and the other
// side's entries of their key, up to the row that makes maxPairs, and
// returns the row after the last listed. A row whose key holds many rows
// of the other side lists only the pairs the residual keeps (hotMatches),
// and is marked in hotRow.
func (j *regularJoin) candidates(input, from, n int, data arrow.RecordBatch) (int, error) {
	o := j.sides[1-input]
	j.pairRow, j.pairEnt = j.pairRow[:0], j.pairEnt[:0]
	if o.hot != nil {
		for len(j.hotRow) < n {
			j.hotRow = append(j.hotRow, false)
		}
		clear(j.hotRow[from:n])
	}
	for i := from; i < n; i++ {
		if g := j.groups[i]; g != 0 && o.hot != nil && o.size[g] >= hotRows {
			if err := j.hotMatches(input, i, g, data); err != nil {
				return i, err
			}
			j.hotRow[i] = true
		} else if g != 0 {
			for e := o.head[g]; e >= 0; {
				next := o.at(e).next
				if j.expired(o, e) {
					j.expire(o, e)
				} else {
					j.pairRow, j.pairEnt = append(j.pairRow, int32(i)), append(j.pairEnt, e)
				}
				e = next
			}
		}
		if len(j.pairRow) >= maxPairs {
			return i + 1, nil
		}
	}
	return n, nil
}

// expired tells whether an entry has outlived the state TTL: it was last
// written TTL or more ago (Flink's state TTL, updated on create and write,
// never returning an expired value).
func (j *regularJoin) expired(s *side, e int32) bool {
	return j.cfg.StateTTL > 0 && j.now-s.writtenAt(e) >= j.cfg.StateTTL
}

func (j *regularJoin) expire(s *side, e int32) {
	j.stats.ExpiredRows += int64(s.count(e))
	s.remove(e)
	j.removedAny = true
}

// sweep expires every entry past the TTL, once per TTL, so rows of keys
// that never come again go too, and drops the keys left without rows.
func (j *regularJoin) sweep() {
	for _, s := range j.sides {
		for e := range s.n {
			if s.at(e).group >= 0 && j.expired(s, e) {
				j.expire(s, e)
			}
		}
	}
	for g := int32(1); g < j.keys.groups; g++ {
		if j.keys.inUse[g] && j.sides[0].head[g] < 0 && j.sides[1].head[g] < 0 {
			j.keys.drop(g)
		}
	}
	j.sides[0].emptied, j.sides[1].emptied = j.sides[0].emptied[:0], j.sides[1].emptied[:0]
	j.lastSweep = j.now
}

// apply applies rows from..to-1 of the batch in order, with their
// candidate pairs (those the residual kept), emitting the changes, each
// with the watermark of the row that made it (wms, nil: the one last
// forwarded).
func (j *regularJoin) apply(input, from, to int, kinds rowkind.Column, data arrow.RecordBatch, wms []int64) error {
	p := 0
	for i := from; i < to; i++ {
		start := p
		for p < len(j.pairRow) && j.pairRow[p] == int32(i) {
			p++
		}
		matches := j.pairEnt[start:p]
		kind := kinds.At(i)
		switch {
		case !j.semiAnti:
			j.applyJoin(input, i, kind, matches)
		case input == 0:
			j.applySemiAntiLeft(i, kind, matches)
		default:
			j.applySemiAntiRight(i, kind, matches)
		}
		if wms != nil {
			j.outWms.extend(len(j.kinds), max(wms[i], j.forwarded), j.forwarded)
		}
		if len(j.kinds) >= outputRows {
			if err := j.flush(input, data); err != nil {
				return err
			}
		}
	}
	return nil
}

var outKinds = [...]windowop.RowKind{rowkind.Insert: windowop.Insert, rowkind.UpdateBefore: windowop.UpdateBefore,
	rowkind.UpdateAfter: windowop.UpdateAfter, rowkind.Delete: windowop.Delete}

// applyJoin is StreamingJoinOperator's processElement for batch row i.
func (j *regularJoin) applyJoin(input, i int, kind rowkind.Kind, matches []int32) {
	s, o := j.sides[input], j.sides[1-input]
	inOuter, otherOuter := j.outer[input], j.outer[1-input]
	in := -int32(i) - 1
	var n int64
	for _, e := range matches {
		n += int64(o.count(e))
	}
	if !kind.IsRetraction() {
		if inOuter && n == 0 {
			j.emit(input, windowop.Insert, in, pad)
			j.add(s, i, 0)
			return
		}
		if !inOuter {
			j.add(s, i, 0)
		}
		out := windowop.Insert
		if otherOuter {
			// the other rows' padded rows go before their first match
			for _, e := range matches {
				a := o.assoc(e)
				if *a == 0 {
					j.emitCopies(input, windowop.Delete, pad, o.at(e).id, o.count(e))
				}
				*a++
				o.touch(e, j.now)
			}
		} else if !inOuter {
			out = outKinds[kind]
		}
		for _, e := range matches {
			j.emitCopies(input, out, in, o.at(e).id, o.count(e))
		}
		if inOuter {
			j.add(s, i, n)
		}
		return
	}
	j.retract(s, i)
	if n == 0 {
		if inOuter {
			j.emit(input, windowop.Delete, in, pad)
		}
		return
	}
	out := outKinds[kind]
	if inOuter {
		out = windowop.Delete
	}
	for _, e := range matches {
		j.emitCopies(input, out, in, o.at(e).id, o.count(e))
	}
	if otherOuter {
		for _, e := range matches {
			a := o.assoc(e)
			if *a == 1 {
				j.emitCopies(input, windowop.Insert, pad, o.at(e).id, o.count(e))
			}
			*a--
			o.touch(e, j.now)
		}
	}
}

// applySemiAntiLeft is StreamingSemiAntiJoinOperator's processElement1: a
// left row goes out with its own kind when it has matches (SEMI) or none
// (ANTI), and is kept with its number of matches.
func (j *regularJoin) applySemiAntiLeft(i int, kind rowkind.Kind, matches []int32) {
	s, o := j.sides[0], j.sides[1]
	var n int64
	for _, e := range matches {
		n += int64(o.count(e))
	}
	if (n > 0) != j.anti {
		j.emit(0, outKinds[kind], -int32(i)-1, pad)
	}
	if kind.IsRetraction() {
		j.retract(s, i)
	} else {
		j.add(s, i, n)
	}
}

// applySemiAntiRight is processElement2: a left row whose first match
// comes goes out (SEMI, with the right row's kind) or is taken back
// (ANTI), and the reverse when its last match goes.
func (j *regularJoin) applySemiAntiRight(i int, kind rowkind.Kind, matches []int32) {
	s, o := j.sides[1], j.sides[0]
	if !kind.IsRetraction() {
		j.add(s, i, 0)
		out := outKinds[kind]
		if j.anti {
			out = windowop.Delete
		}
		for _, e := range matches {
			a := o.assoc(e)
			if *a == 0 {
				j.emitCopies(1, out, pad, o.at(e).id, o.count(e))
			}
			*a++
			o.touch(e, j.now)
		}
		return
	}
	j.retract(s, i)
	out := outKinds[kind]
	if j.anti {
		out = windowop.Insert
	}
	for _, e := range matches {
		a := o.assoc(e)
		if *a == 1 {
			j.emitCopies(1, out, pad, o.at(e).id, o.count(e))
		}
		*a--
		o.touch(e, j.now)
	}
}

// add keeps batch row i of side s with assoc matches: a copy more of an
// equal row an update stream keeps, else a new entry.
func (j *regularJoin) add(s *side, i int, assoc int64) {
	g := j.groups[i]
	if s.log.on {
		j.logRow(s, i)
		return
	}
	if !s.update {
		s.newEntry(g, int32(i), assoc, j.now)
		return
	}
	key := s.bufs[i]
	if e, ok := s.idents[string(key)]; ok {
		if !j.expired(s, e) {
			*s.copies.at(e)++
			if s.matches.used {
				*s.assoc(e) = assoc // as Flink's record state keeps one count per row
			}
			s.touch(e, j.now)
			return
		}
		j.expire(s, e)
	}
	e := s.newEntry(g, int32(i), assoc, j.now)
	s.setIdent(e, key)
}

// retract takes a copy of batch row i from side s; a row not kept (never
// added, or expired) changes nothing, as in Flink.
func (j *regularJoin) retract(s *side, i int) {
	if !s.update {
		return
	}
	e, ok := s.idents[string(s.bufs[i])]
	if !ok {
		return
	}
	if j.expired(s, e) {
		j.expire(s, e)
		return
	}
	c := s.copies.at(e)
	if *c--; *c == 0 {
		s.remove(e)
		j.removedAny = true
		return
	}
	s.touch(e, j.now)
}

// emit adds an output row: in names the input's row (a batch row as
// -(row+1)), other the other side's (a kept row's id), either pad.
func (j *regularJoin) emit(input int, kind windowop.RowKind, in, other int32) {
	j.kinds = append(j.kinds, kind)
	j.refs[input] = append(j.refs[input], in)
	j.refs[1-input] = append(j.refs[1-input], other)
}

func (j *regularJoin) emitCopies(input int, kind windowop.RowKind, in, other int32, copies int32) {
	for range copies {
		j.emit(input, kind, in, other)
	}
}

// ProcessWatermark forwards a watermark larger than the last: the output
// has no time attribute, but what reads it may wait for the watermark.
func (j *regularJoin) ProcessWatermark(wm int64) error {
	if wm <= j.forwarded {
		return nil
	}
	j.forwarded = wm
	return j.out.ProcessWatermark(wm)
}

// ProcessEnd forwards the end: a regular join emits as rows come.
func (j *regularJoin) ProcessEnd() error { return j.out.ProcessEnd() }

// Close releases the kept rows.
func (j *regularJoin) Close() {
	for _, s := range j.sides {
		s.store.Release()
		for _, h := range s.hot {
			h.release()
		}
		if s.residual != nil {
			s.residual.store.Release()
		}
		if s.deferred != nil {
			s.deferred.store.Release()
		}
	}
	j.mem.Close()
}
