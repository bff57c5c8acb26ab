package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
)

// lookupPairs are what both lookup joins (of a table of files, of a table
// queried by key) pair a batch's probe rows with: probe row li[k] with
// table row ti[k], the probe rows in order, a table row of NULLs (null)
// padding a LEFT join's probe row without one. The slices are reused
// from batch to batch.
type lookupPairs struct {
	li, ti       []int32 // the output's probe and table rows
	candL, candT []int32 // the pairs the residual decides
	wms          []int64 // the output rows' watermarks
	// residualInput is the joined rows' schema as the residual reads it
	residualInput *arrow.Schema
}

// lookupJoiner is what applyResidual asks of a lookup join.
type lookupJoiner interface {
	// gather builds the output rows of probe rows li of rec and table
	// rows ti.
	gather(rec arrow.RecordBatch, li, ti []int32) (arrow.RecordBatch, error)
	send(out arrow.RecordBatch, watermarks []int64) error
}

// applyResidual evaluates the residual condition once over every pair
// that found a table row and keeps the pairs it holds for; a LEFT join
// (outer) pads a probe row none of whose pairs is kept. It sends the
// pairs at once when all are kept (done).
func (p *lookupPairs) applyResidual(j lookupJoiner, b pipeline.Batch, residual expr.Expr, schema *arrow.Schema, null int32, outer bool, mem memory.Allocator) (done bool, err error) {
	candL, candT := p.candL[:0], p.candT[:0]
	for k, r := range p.ti {
		if r != null {
			candL, candT = append(candL, p.li[k]), append(candT, r)
		}
	}
	p.candL, p.candT = candL, candT
	if len(candL) == 0 {
		return false, nil
	}
	joined, err := j.gather(b.Record, candL, candT)
	if err != nil {
		return true, err
	}
	in := joined
	if p.residualInput != schema {
		in = array.NewRecordBatch(p.residualInput, joined.Columns()[1:], joined.NumRows())
		defer in.Release()
	}
	res, err := residual.Eval(in, mem)
	if err != nil {
		joined.Release()
		return true, err
	}
	defer res.Release()
	pass, kept := expr.BoolMask(res.(*array.Boolean))
	if kept == len(candL) && len(candL) == len(p.li) {
		return true, j.send(joined, b.Watermarks)
	}
	joined.Release()
	// the pairs kept, in order, and a padded row for a probe row left
	// without any
	li, ti := p.li[:0], p.ti[:0]
	c := 0
	for k := 0; k < len(p.li); {
		row := p.li[k]
		found := false
		for ; k < len(p.li) && p.li[k] == row; k++ {
			if p.ti[k] == null {
				continue
			}
			if bitutil.BitIsSet(pass, c) {
				li, ti = append(li, row), append(ti, p.ti[k])
				found = true
			}
			c++
		}
		if !found && outer {
			li, ti = append(li, row), append(ti, null)
		}
	}
	p.li, p.ti = li, ti
	return false, nil
}

// outputWatermarks are the output rows' watermarks, each its probe
// row's; nil when the batch has none.
func (p *lookupPairs) outputWatermarks(watermarks []int64) []int64 {
	if watermarks == nil {
		return nil
	}
	wms := p.wms[:0]
	for _, i := range p.li {
		wms = append(wms, watermarks[i])
	}
	p.wms = wms
	return wms
}
