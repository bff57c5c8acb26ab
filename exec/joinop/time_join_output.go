package joinop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rowstore"
	"github.com/wsql/wsql/pipeline"
)

// The interval and window joins keep each side's rows in a rowstore.Store
// and make every output batch with one gather per side: a joined row is a
// left ref and a right ref, each a kept row's id, -(r+1) for row r of the
// batch being read, or the side's NULL row (a padded side), which each
// store keeps under id nullRow from the start.
const nullRow int32 = 0

// newSideStore is a store of one input's rows holding its NULL row.
func newSideStore(schema *arrow.Schema, mem memory.Allocator) (*rowstore.Store, error) {
	s := rowstore.New(schema, mem)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, f := range b.Fields() {
		f.AppendNull()
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	ids, err := s.Add(rec, []int32{0}, nil)
	if err != nil {
		s.Release()
		return nil, err
	}
	if ids[0] != nullRow {
		s.Release()
		return nil, fmt.Errorf("join: the NULL row is id %d", ids[0])
	}
	return s, nil
}

// pairs are joined rows named by their refs, gathered a batch at a time.
type pairs struct {
	mem         memory.Allocator
	left, right *rowstore.Store
	// joined is Left's columns then Right's (the Residual's input); out
	// the output schema (Left's only for SEMI and ANTI).
	joined, out *arrow.Schema
	residual    expr.Expr
	l, r        []int32 // the refs
	mask        []bool  // residual's result by pair, reused
	// matched is joined with the columns the residual does not read
	// NULL-typed, and read[side] the columns of each side it reads (nil:
	// every column): match gathers only those (Nexmark q5_tvf's window
	// join reads two of seven columns of its 3M pairs)
	matched *arrow.Schema
	read    [2][]int
}

func newPairs(cfg Config, mem memory.Allocator, left, right *rowstore.Store) (*pairs, error) {
	out, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	fields := append(append([]arrow.Field(nil), cfg.Left.Fields()...), cfg.Right.Fields()...)
	p := &pairs{mem: mem, left: left, right: right, joined: arrow.NewSchema(fields, nil), out: out, residual: cfg.Residual}
	if p.residual != nil && p.residual.DataType().ID() != arrow.BOOL {
		return nil, fmt.Errorf("join condition %s is %s, not BOOLEAN", p.residual, p.residual.DataType())
	}
	p.matched = p.joined
	read := make([]bool, len(fields))
	if p.residual != nil && residualColumns(p.residual, read) {
		for c, f := range fields {
			if !read[c] {
				fields[c] = arrow.Field{Name: f.Name, Type: arrow.Null, Nullable: true}
			}
		}
		p.matched = arrow.NewSchema(fields, nil)
		nLeft := cfg.Left.NumFields()
		for side, cols := range [2][]bool{read[:nLeft], read[nLeft:]} {
			p.read[side] = []int{}
			for c, r := range cols {
				if r {
					p.read[side] = append(p.read[side], c)
				}
			}
		}
	}
	return p, nil
}

// gatherRead returns the pairs as one record of matched: each side's
// columns the residual reads, NULL columns for the others.
func (p *pairs) gatherRead(lb, rb arrow.RecordBatch) (arrow.RecordBatch, error) {
	if p.read[0] == nil {
		return p.gather(p.joined, lb, rb)
	}
	n := len(p.l)
	cols := make([]arrow.Array, 0, p.matched.NumFields())
	for side, st := range [2]*rowstore.Store{p.left, p.right} {
		b, refs, nFields := lb, p.l, p.left.Schema().NumFields()
		if side == 1 {
			b, refs, nFields = rb, p.r, p.right.Schema().NumFields()
		}
		read, err := st.GatherColumnsWith(b, refs, p.read[side])
		if err != nil {
			expr.ReleaseAll(cols)
			return nil, err
		}
		cols = spreadColumns(cols, read, p.read[side], nFields, n) // regular_residual.go
	}
	defer expr.ReleaseAll(cols)
	return array.NewRecordBatch(p.matched, cols, int64(n)), nil
}

func (p *pairs) add(l, r int32) { p.l, p.r = append(p.l, l), append(p.r, r) }
func (p *pairs) reset()         { p.l, p.r = p.l[:0], p.r[:0] }
func (p *pairs) len() int       { return len(p.l) }

// gather returns the pairs as one record of schema (joined or out, whose
// columns are the same but for SEMI's and ANTI's missing right side);
// lb and rb are the batches negative refs name.
func (p *pairs) gather(schema *arrow.Schema, lb, rb arrow.RecordBatch) (arrow.RecordBatch, error) {
	l, err := p.left.GatherWith(lb, p.l)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	cols := make([]arrow.Array, 0, schema.NumFields())
	cols = append(cols, l.Columns()...)
	if schema.NumFields() > len(cols) {
		r, err := p.right.GatherWith(rb, p.r)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		cols = append(cols, r.Columns()...)
	}
	return array.NewRecordBatch(schema, cols, int64(len(p.l))), nil
}

// match evaluates the Residual over the pairs once, leaving in mask
// whether each pair joins (every pair without a Residual).
func (p *pairs) match(lb, rb arrow.RecordBatch) error {
	n := len(p.l)
	p.mask = p.mask[:0]
	if p.residual == nil || n == 0 {
		for range n {
			p.mask = append(p.mask, true)
		}
		return nil
	}
	rec, err := p.gatherRead(lb, rb)
	if err != nil {
		return err
	}
	defer rec.Release()
	c, err := p.residual.Eval(rec, p.mem)
	if err != nil {
		return err
	}
	defer c.Release()
	bits, _ := expr.BoolMask(c.(*array.Boolean))
	for i := range n {
		p.mask = append(p.mask, bits[i>>3]&(1<<(i&7)) != 0)
	}
	return nil
}

// emit gathers the pairs as output rows, sends them to out with the
// watermarks wms (nil: the one last forwarded) and counts them.
func (p *pairs) emit(out pipeline.Operator, lb, rb arrow.RecordBatch, wms []int64, stats *Stats) error {
	if len(p.l) == 0 {
		return nil
	}
	rec, err := p.gather(p.out, lb, rb)
	if err != nil {
		return err
	}
	defer rec.Release()
	stats.ResultRows += rec.NumRows()
	return out.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: wms})
}

// appendOnly refuses an update stream input: interval and window joins
// join rows that never change (Flink's planner asks insert-only inputs).
func appendOnly(cfg Config, join string) error {
	if IsUpdateStream(cfg.Left) || IsUpdateStream(cfg.Right) {
		return fmt.Errorf("%s join needs append-only inputs, not an update stream", join)
	}
	return nil
}
