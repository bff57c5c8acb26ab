package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/pipeline"
)

// groupRows is the GROUP BY's path for aggregates that all fold rows
// (rowFolder): each aggregate folds the whole batch in one call, row by
// row, recording its results before and after each row; a row whose key
// is new emits +I with the results after it, a row that changed any
// result -U with those before it and +U with those after. That is what
// the segments emit, without cutting the batch where a key repeats:
// Nexmark q15's one key made segments of one row, each crossing every
// aggregate's interface and the output builders.
//
// The results before a key's first row of a batch are its slot's, which
// are the values it emitted last (the results compare exactly), so no
// shadow slot is kept; SnapshotState fills them in (syncShadows).
type groupRows struct {
	units   []foldUnit
	results []rowResults // by aggregate
	masks   []passMask   // the batch's FILTER conditions
	changed []bool       // by row: some result changed
	fresh   []bool       // by row: the first row of a key without state
	picks   []int32
	order   slotOrder
	// by aggregate: its column of this batch's results, built by
	// int64Results, for flush; nil for one appended to the builder
	built []arrow.Array
}

// foldUnit is what one call folds: an aggregate, or the COUNT(DISTINCT)
// aggregates sharing one set (sharedCountDistinct, the owner first).
type foldUnit struct {
	aggs    []int // by member: the aggregate's index
	folder  rowFolder
	shared  []*sharedCountDistinct
	passes  [][]bool // scratch, by member
	results []*rowResults
}

// passMask is a FILTER column's condition by row: TRUE, not FALSE or NULL.
type passMask struct {
	col   int
	batch uint64
	pass  []bool
}

// newGroupRows returns the per-row path of accs when the operator can
// take it, nil when it cannot.
func newGroupRows(cfg GroupConfig, accs []accumulator, failers []failer) *groupRows {
	if cfg.Retract || cfg.StateTTL > 0 || len(failers) > 0 {
		return nil
	}
	g := &groupRows{results: make([]rowResults, len(accs)), built: make([]arrow.Array, len(accs))}
	sets := map[*distinctSets]int{} // the unit of each shared set
	for i, a := range accs {
		f, ok := a.(rowFolder)
		if !ok || !f.foldsRows() || len(cfg.Aggs[i].MoreInputs) > 0 {
			return nil
		}
		d, ok := a.(*sharedCountDistinct)
		if !ok {
			g.units = append(g.units, foldUnit{aggs: []int{i}, folder: f})
			continue
		}
		u, ok := sets[d.set]
		if !ok {
			u = len(g.units)
			sets[d.set] = u
			g.units = append(g.units, foldUnit{})
		}
		g.units[u].aggs = append(g.units[u].aggs, i)
		g.units[u].shared = append(g.units[u].shared, d)
		g.units[u].passes = append(g.units[u].passes, nil)
		g.units[u].results = append(g.units[u].results, &g.results[i])
	}
	return g
}

// mask is FILTER column col's condition for the batch numbered batch.
func (g *groupRows) mask(rec arrow.RecordBatch, col int, batch uint64) []bool {
	var m *passMask
	for i := range g.masks {
		if g.masks[i].col == col {
			m = &g.masks[i]
		}
	}
	if m == nil {
		g.masks = append(g.masks, passMask{col: col})
		m = &g.masks[len(g.masks)-1]
	} else if m.batch == batch {
		return m.pass
	}
	cond := rec.Column(col).(*array.Boolean)
	n := cond.Len()
	m.batch, m.pass = batch, grow(m.pass, n)
	pass := m.pass[:n]
	for i := range pass {
		pass[i] = cond.Value(i)
	}
	if cond.NullN() > 0 {
		for i := range pass {
			pass[i] = pass[i] && cond.IsValid(i)
		}
	}
	return pass
}

// processRows folds and emits batch b's n rows, whose keys are interned.
func (op *GroupOperator) processRows(b pipeline.Batch, n int) error {
	g := op.rowPath
	rec := b.Record
	keyIDs, slots := op.keyIDs[:n], op.rowSlots[:n]
	g.fresh = grow(g.fresh, n)
	g.changed = grow(g.changed, n)
	fresh, changed := g.fresh[:n], g.changed[:n]
	for i, k := range keyIDs {
		s := op.live[k]
		fresh[i] = s < 0
		if s < 0 {
			s = op.slots.alloc()
			op.live[k] = s
		}
		slots[i] = s
	}
	clear(changed)
	order := g.order.of(slots)
	op.batches++
	for ui := range g.units {
		u := &g.units[ui]
		for j, i := range u.aggs {
			u.passes = append(u.passes[:j], nil)
			if spec := &op.cfg.Aggs[i]; spec.Filtered {
				u.passes[j] = g.mask(rec, spec.Filter, op.batches)
			}
		}
		spec := &op.cfg.Aggs[u.aggs[0]]
		var col arrow.Array
		if spec.Kind != CountStar {
			col = rec.Column(spec.Input)
		}
		if u.shared != nil {
			foldSharedRows(u.shared, col, u.passes, slots, order, u.results, changed)
		} else {
			u.folder.foldRows(col, u.passes[0], slots, order, &g.results[u.aggs[0]], changed)
		}
	}
	picks := g.picks[:0]
	wms := b.Watermarks
	for i, k := range keyIDs {
		if wms != nil {
			op.wm = wms[i]
		}
		switch {
		case fresh[i]:
			op.record(Insert, k, -1)
			picks = append(picks, int32(2*i+1))
		case changed[i]:
			op.record(UpdateBefore, k, -1)
			op.record(UpdateAfter, k, -1)
			picks = append(picks, int32(2*i), int32(2*i+1))
		}
	}
	g.picks = picks
	for i := range g.results {
		r := &g.results[i]
		if a, ok := op.accs[i].(rowResultAppender); ok {
			if g.built[i] = a.buildRowResults(op.mem, picks, r); g.built[i] != nil {
				continue
			}
			a.appendRowResults(op.builder.Field(i), picks, r)
			continue
		}
		if b := op.builder.Field(i); r.has == nil && b.Type().ID() == arrow.INT64 && len(picks) > 0 {
			g.built[i] = int64Results(op.mem, b.Type(), picks, r.vals)
			continue
		}
		appendIntsAt(op.builder.Field(i), picks, r.has, r.vals)
	}
	return op.flush()
}

// syncShadows gives every key with state a shadow slot holding its
// results, as the segments' path keeps them, before a snapshot.
func (op *GroupOperator) syncShadows() {
	if op.rowPath == nil {
		return
	}
	for k, live := range op.live {
		if live < 0 {
			continue
		}
		if op.shadow[k] < 0 {
			op.shadow[k] = op.slots.alloc()
		}
		for _, copyResult := range op.copiers {
			copyResult(op.shadow[k], live)
		}
	}
}
