package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
)

// temporalOutRows bounds an output batch: the end of input fires every
// probe row still waiting at once.
const temporalOutRows = 1 << 16

// emit joins the fired probe rows, in their order, and sends the result.
func (t *temporalJoin) emit(fired []probe) error {
	for len(fired) > 0 {
		n := min(len(fired), temporalOutRows)
		if err := t.emitBatch(fired[:n]); err != nil {
			return err
		}
		fired = fired[n:]
	}
	return nil
}

// emitBatch sends one output batch: each probe row with the version of its
// key valid at its time, when there is one that is no retraction and the
// residual condition holds for the pair; a LEFT join sends the others
// with NULLs. The rows are gathered a column at a time, and the residual
// is evaluated once over all the pairs.
func (t *temporalJoin) emitBatch(fired []probe) error {
	outer := t.cfg.Kind == LeftOuter
	lrefs, rrefs, cand := t.lrefs[:0], t.rrefs[:0], t.cand[:0]
	for _, p := range fired {
		r := int32(-1) // the NULL row (GatherWith's row 0 of nullRight)
		if p.key >= 0 {
			ks := &t.keys.state[p.key]
			if i := ks.at(p.time); i >= 0 && !ks.versions[i].retract {
				r = ks.versions[i].id
			}
		}
		if r >= 0 {
			cand = append(cand, int32(len(lrefs)))
		} else if !outer {
			continue
		}
		lrefs = append(lrefs, p.id)
		rrefs = append(rrefs, r)
	}
	t.lrefs, t.rrefs, t.cand = lrefs, rrefs, cand
	if t.cfg.Residual != nil && len(cand) > 0 {
		done, err := t.emitResidual(outer)
		if done || err != nil {
			return err
		}
	}
	if len(lrefs) == 0 {
		return nil
	}
	rec, err := t.gather(lrefs, rrefs)
	if err != nil {
		return err
	}
	return t.send(rec)
}

// emitResidual evaluates the residual condition over the pairs of t.cand.
// It sends them when they are the whole output (done); otherwise it turns
// the pairs it fails into NULL-padded rows of t.rrefs for emitBatch to send.
func (t *temporalJoin) emitResidual(outer bool) (done bool, err error) {
	whole := len(t.cand) == len(t.lrefs)
	candL, candR := t.lrefs, t.rrefs
	if !whole {
		candL, candR = t.candL[:0], t.candR[:0]
		for _, c := range t.cand {
			candL = append(candL, t.lrefs[c])
			candR = append(candR, t.rrefs[c])
		}
		t.candL, t.candR = candL, candR
	}
	joined, err := t.gather(candL, candR)
	if err != nil {
		return true, err
	}
	in := joined
	if t.residualInput != t.schema {
		in = array.NewRecordBatch(t.residualInput, joined.Columns()[1:], joined.NumRows())
		defer in.Release()
	}
	res, err := t.cfg.Residual.Eval(in, t.mem)
	if err != nil {
		joined.Release()
		return true, err
	}
	defer res.Release()
	pass, n := expr.BoolMask(res.(*array.Boolean))
	switch {
	case n == len(candL) && whole:
		return true, t.send(joined)
	case !outer:
		defer joined.Release()
		if n == 0 {
			return true, nil
		}
		t.sel = expr.SelectedRows(pass, len(candL), t.sel)
		rec, err := expr.TakeRecord(joined, t.sel, t.mem)
		if err != nil {
			return true, err
		}
		return true, t.send(rec)
	}
	joined.Release()
	for j, c := range t.cand {
		if !bitutil.BitIsSet(pass, j) {
			t.rrefs[c] = -1
		}
	}
	return false, nil
}

// gather builds the output rows of left rows lrefs and right rows rrefs
// (-1: NULLs).
func (t *temporalJoin) gather(lrefs, rrefs []int32) (arrow.RecordBatch, error) {
	l, err := t.left.Gather(lrefs)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	r, err := t.right.GatherWith(t.nullRight, rrefs)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	cols := make([]arrow.Array, 0, t.schema.NumFields())
	cols = append(cols, l.Columns()...)
	cols = append(cols, r.Columns()...)
	return array.NewRecordBatch(t.schema, cols, int64(len(lrefs))), nil
}

// send passes an output batch on and releases it. Its rows go out under
// the operator's time before the firing: no watermark when that is the
// one last forwarded.
func (t *temporalJoin) send(rec arrow.RecordBatch) error {
	defer rec.Release()
	t.stats.ResultRows += rec.NumRows()
	b := pipeline.Batch{Record: rec}
	if t.outWm > t.sent {
		b.Watermarks = fillWatermarks(&t.wms, int(rec.NumRows()), t.outWm)
	}
	return t.out.ProcessBatch(b)
}
