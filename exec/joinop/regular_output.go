package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// filterResidual keeps the candidate pairs whose joined row makes the
// residual condition TRUE, evaluating it on a chunk of pairs at a time.
func (j *regularJoin) filterResidual(input int, data arrow.RecordBatch) error {
	o := j.sides[1-input]
	// the pairs of rows of hot groups are the residual's matches already
	j.keep, j.unsure = j.keep[:0], j.unsure[:0]
	for p, r := range j.pairRow {
		hot := o.hot != nil && j.hotRow[r]
		j.keep = append(j.keep, hot)
		if !hot {
			j.unsure = append(j.unsure, int32(p))
		}
	}
	for from := 0; from < len(j.unsure); from += residualChunk {
		to := min(from+residualChunk, len(j.unsure))
		in, other := j.refs[input][:0], j.refs[1-input][:0]
		for _, p := range j.unsure[from:to] {
			in = append(in, -j.pairRow[p]-1)
			other = append(other, o.at(j.pairEnt[p]).id)
		}
		j.refs[input], j.refs[1-input] = in, other
		cols := make([]arrow.Array, 0, j.joined.NumFields())
		var err error
		for sd, s := range j.sides {
			var batch arrow.RecordBatch
			if sd == input {
				batch = data
			}
			if cols, err = j.gatherPairs(s, batch, j.refs[sd], cols); err != nil {
				break
			}
		}
		if err != nil {
			expr.ReleaseAll(cols)
			return err
		}
		pairs := array.NewRecordBatch(j.pairSchema, cols, int64(to-from))
		expr.ReleaseAll(cols)
		c, err := j.cfg.Residual.Eval(pairs, j.mem)
		pairs.Release()
		if err != nil {
			return err
		}
		mask, _ := expr.BoolMask(c.(*array.Boolean))
		for k, p := range j.unsure[from:to] {
			j.keep[p] = bitutil.BitIsSet(mask, k)
		}
		c.Release()
	}
	kept := 0
	for p, keep := range j.keep {
		if keep {
			j.pairRow[kept], j.pairEnt[kept] = j.pairRow[p], j.pairEnt[p]
			kept++
		}
	}
	j.pairRow, j.pairEnt = j.pairRow[:kept], j.pairEnt[:kept]
	j.refs[0], j.refs[1] = j.refs[0][:0], j.refs[1][:0]
	return nil
}

// flush emits the output rows so far as one batch: the row kinds, the
// left side's columns and the right side's, each gathered in one pass
// from the batch or the kept rows, NULL where padded, and the rows'
// watermarks.
func (j *regularJoin) flush(input int, data arrow.RecordBatch) error {
	n := len(j.kinds)
	if n == 0 {
		return nil
	}
	cols := make([]arrow.Array, 0, j.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
		j.kinds = j.kinds[:0]
		j.refs[0], j.refs[1] = j.refs[0][:0], j.refs[1][:0]
		j.outWms.reset()
	}()
	if j.updates {
		cols = append(cols, windowop.RowKindColumn(j.mem, j.kinds))
	}
	sides := 2
	if j.semiAnti {
		sides = 1
	}
	for sd := range sides {
		var batch arrow.RecordBatch
		if sd == input {
			batch = data
		}
		var err error
		if cols, err = j.gatherSide(j.sides[sd], batch, j.refs[sd], cols); err != nil {
			return err
		}
	}
	out := array.NewRecordBatch(j.schema, cols, int64(n))
	defer out.Release()
	j.stats.ResultRows += int64(n)
	return j.out.ProcessBatch(pipeline.Batch{Record: out, Watermarks: j.outWms.batch(n)})
}

// gatherSide appends the columns of one side's rows refs (rows of batch,
// the input's, or kept rows), NULL where a ref is pad.
func (j *regularJoin) gatherSide(s *side, batch arrow.RecordBatch, refs []int32, cols []arrow.Array) ([]arrow.Array, error) {
	// a padded row gathers some row, then is masked NULL
	some, padded := pad, false
	if batch != nil {
		some = -1
	}
	for _, r := range refs {
		if r == pad {
			padded = true
		} else if some == pad {
			some = r
		}
	}
	if some == pad { // every row padded
		for _, f := range s.schema.Fields() {
			cols = append(cols, array.MakeArrayOfNull(j.mem, f.Type, len(refs)))
		}
		return cols, nil
	}
	if padded {
		j.pads = j.pads[:0]
		for k, r := range refs {
			j.pads = append(j.pads, r == pad)
			if r == pad {
				refs[k] = some
			}
		}
	}
	rec, err := s.store.GatherWith(batch, refs)
	if err != nil {
		return cols, err
	}
	defer rec.Release()
	for _, c := range rec.Columns() {
		if padded {
			cols = append(cols, withNulls(j.mem, c, j.pads))
		} else {
			c.Retain()
			cols = append(cols, c)
		}
	}
	return cols, nil
}

// withNulls is col with the rows where null is true made NULL.
func withNulls(mem memory.Allocator, col arrow.Array, null []bool) arrow.Array {
	d := col.Data()
	if d.DataType().ID() == arrow.NULL {
		col.Retain()
		return col
	}
	n, off := d.Len(), d.Offset()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(off + n))))
	bits := valid.Bytes()
	clear(bits)
	var old []byte
	if b := d.Buffers()[0]; b != nil && col.NullN() > 0 {
		old = b.Bytes()
	}
	nulls := 0
	for i := range n {
		if null[i] || old != nil && !bitutil.BitIsSet(old, off+i) {
			nulls++
			continue
		}
		bitutil.SetBit(bits, off+i)
	}
	bufs := append([]*memory.Buffer{valid}, d.Buffers()[1:]...)
	var nd *array.Data
	if d.Dictionary() != nil {
		nd = array.NewDataWithDictionary(d.DataType(), n, bufs, nulls, off, d.Dictionary().(*array.Data))
	} else {
		nd = array.NewData(d.DataType(), n, bufs, d.Children(), nulls, off)
	}
	valid.Release()
	defer nd.Release()
	return array.MakeFromData(nd)
}
