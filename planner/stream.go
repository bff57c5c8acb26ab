package planner

import (
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/intervalfn"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
)

// computedExpr compiles a computed column over the source's columns.
func computedExpr(c catalog.Column, src *arrow.Schema) (expr.Expr, error) {
	col := func(e sql.Expr) expr.Expr {
		name := e.(*sql.ColumnRef).Name
		for i, f := range src.Fields() {
			if strings.EqualFold(f.Name, name) {
				return &expr.ColumnExpr{Index: i, Name: f.Name, Type: f.Type}
			}
		}
		return nil
	}
	switch e := c.Computed.(type) {
	case *sql.ColumnRef:
		return col(e), nil
	case *sql.FuncCall:
		switch {
		case len(e.Args) == 0 || !isColumnRef(e.Args[0]):
		case e.Name == "TO_TIMESTAMP_LTZ":
			return &expr.ToTimestampLTZ{Arg: col(e.Args[0]), Precision: catalog.LTZPrecision(e)}, nil
		case e.Name == "TO_TIMESTAMP":
			f, err := expr.NewToTimestamp(col(e.Args[0]), catalog.TimestampFormat(e))
			if err != nil {
				return nil, sql.Errorf(sql.ErrInvalid, e.At, "%v", err)
			}
			return f, nil
		}
	}
	x, err := exprplan.CompileExpr(c.Computed, computedScope{fields: src.Fields()}, exprplan.ExprOptions{})
	if err == nil && !arrow.TypeEqual(x.DataType(), c.Type) {
		err = sql.Errorf(sql.ErrInvalid, c.Computed.Pos(), "internal: computed column %s is %s, declared %s", c.Name, sqlTypeName(x.DataType()), c.SQLType)
	}
	return x, err
}

func isColumnRef(e sql.Expr) bool {
	_, ok := e.(*sql.ColumnRef)
	return ok
}

// buildStream plans the source and the stream after it: the physical
// columns, then the computed columns in needed (each once), then a dynamic
// session gap column if the window has one. It maps table columns to
// stream columns.
//
// With prune, needed and reads are every column the query reads (reads:
// expressions over the table, whose ROW field accesses read only those
// fields), and a generator is told which physical columns and fields
// nothing reads, so it may skip making them.
func (s *selectPlanner) buildStream(opts Options, needed []int, reads []sql.Expr, prune bool) (exec.Source, *arrow.Schema, map[int]int, *exec.ComputedSpec, int, error) {
	t := s.table
	if s.input != nil {
		// a subquery's rows are the stream as they are
		idx, shift := map[int]int{}, 0
		if s.updates {
			shift = 1 // the row kind leads the rows
		}
		for i := range t.Columns {
			idx[i] = i + shift
		}
		if s.gapCol >= 0 {
			return nil, nil, nil, nil, -1, sql.Errorf(sql.ErrUnsupported, s.window.At, "a per-row session gap over a subquery is not supported yet")
		}
		if s.updates {
			return nil, s.input.Schema(), idx, nil, -1, nil
		}
		return nil, t.Schema(), idx, nil, -1, nil
	}
	src, err := planSource(t, opts)
	if err != nil {
		return nil, nil, nil, nil, -1, err
	}
	schema := src.Spec().Schema
	taken := map[int]int64{} // columns the source holds to one value
	if m, ok := src.(*exec.MakerSource); ok && prune {
		if p, ok := m.Maker.(exec.ColumnPruner); ok {
			read, fields := readColumns(t, needed, reads, schema)
			p.ReadOnly(read)
			if fp, ok := m.Maker.(exec.FieldPruner); ok {
				fp.ReadFieldsOnly(fields)
			}
		}
		if p, ok := m.Maker.(exec.EqualsPusher); ok && s.stmt.Where != nil {
			// the conditions the source took leave the WHERE (a copy: the
			// statement may be a view's, planned again elsewhere)
			q := *s.stmt
			q.Where = pushEquals(p, s.stmt.Where, t, schema, taken) // source_filter.go
			s.stmt = &q
		}
	}
	streamIdx := map[int]int{} // table column -> stream column
	fields := append([]arrow.Field(nil), schema.Fields()...)
	for i, c := range t.Columns {
		if c.Computed == nil {
			// the last: an update stream's row kind column comes first
			idx := schema.FieldIndices(c.Name)
			streamIdx[i] = idx[len(idx)-1]
		}
	}
	var computed *exec.ComputedSpec
	for _, col := range needed {
		if _, ok := streamIdx[col]; ok {
			continue
		}
		c := t.Columns[col]
		streamIdx[col] = len(fields)
		fields = append(fields, c.Field())
		if c.Proctime {
			continue // planned so EXPLAIN shows it; Job refuses processing time
		}
		e, err := computedExpr(c, schema)
		if err != nil {
			return nil, nil, nil, nil, -1, err
		}
		e = decideOnTaken(e, taken) // source_constants.go
		if computed == nil {
			computed = &exec.ComputedSpec{RowtimeIndex: -1, Table: t.Name, SkipBadRows: src.Spec().SkipBadRows}
		}
		computed.Exprs = append(computed.Exprs, e)
		if t.Watermark != nil && col == t.Watermark.Index {
			computed.RowtimeIndex = streamIdx[col]
			fields[streamIdx[col]].Nullable = false
		}
	}
	gapIndex := -1
	if s.gapCol >= 0 {
		// each row's gap in ms, as a hidden computed column
		gapIndex = len(fields)
		fields = append(fields, arrow.Field{Name: "$session_gap_ms", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
		if computed == nil {
			computed = &exec.ComputedSpec{RowtimeIndex: -1, Table: t.Name, SkipBadRows: src.Spec().SkipBadRows}
		}
		gc := t.Columns[s.gapCol]
		arg := &expr.ColumnExpr{Index: streamIdx[s.gapCol], Name: gc.Name, Type: gc.Type}
		computed.Exprs = append(computed.Exprs, &intervalfn.ScaleInt{Arg: arg, Factor: s.window.Gap})
	}
	stream := arrow.NewSchema(fields, nil)
	if computed != nil {
		computed.Schema = stream
	}
	return src, stream, streamIdx, computed, gapIndex, nil
}

// watermarkColumns lists the columns a general watermark expression reads,
// so the stream carries them.
func (s *selectPlanner) watermarkColumns() ([]int, error) {
	wm := s.table.Watermark
	if wm == nil || wm.Bounded || wm.Upstream || wm.Source {
		return nil, nil
	}
	return s.referencedColumns(wm.Expr)
}

// watermarkExpr compiles a general `WATERMARK FOR ts AS expr` over the
// stream: any expression giving a timestamp, whose maximum over the rows
// so far is the watermark. Nil for the bounded form, which needs none.
func (s *selectPlanner) watermarkExpr(scope exprplan.Scope, opts Options) (expr.Expr, error) {
	wm := s.table.Watermark
	if wm == nil || wm.Bounded || wm.Upstream || wm.Source {
		return nil, nil
	}
	e, err := exprplan.CompileExpr(wm.Expr, beforeWatermarks{scope}, exprOptions(opts))
	if err != nil {
		return nil, err
	}
	if _, ok := e.DataType().(*arrow.TimestampType); !ok {
		return nil, sql.Errorf(sql.ErrInvalid, wm.Expr.Pos(), "the watermark expression must give a timestamp, not %s", sqlTypeName(e.DataType()))
	}
	return e, nil
}

// beforeWatermarks is a scope whose rows have no watermark yet: the
// WATERMARK expression's.
type beforeWatermarks struct{ exprplan.Scope }

// readColumns marks the source fields the needed table columns and the
// expressions reads read: physical ones, and those computed columns read.
func readColumns(t *catalog.Table, needed []int, reads []sql.Expr, src *arrow.Schema) ([]bool, [][]string) {
	read := make([]bool, src.NumFields())
	whole := make([]bool, src.NumFields())
	fields := make([][]string, src.NumFields())
	mark := func(e sql.Expr) {
		walkExpr(e, func(x sql.Expr) bool { // every column under any expression
			name, field := "", ""
			switch x := x.(type) {
			case *sql.ColumnRef:
				name = x.Name
			case *sql.FieldAccess: // a ROW column's field: only it is read
				c, ok := x.X.(*sql.ColumnRef)
				if !ok {
					return true
				}
				name, field = c.Name, x.Field.Name
			default:
				return true
			}
			for i, f := range src.Fields() {
				if strings.EqualFold(f.Name, name) {
					read[i] = true
					if field == "" {
						whole[i] = true
					} else if !slices.ContainsFunc(fields[i], func(g string) bool { return strings.EqualFold(g, field) }) {
						fields[i] = append(fields[i], field)
					}
				}
			}
			return field == ""
		})
	}
	for _, e := range reads {
		mark(e)
	}
	for _, col := range needed {
		c := t.Columns[col]
		if c.Computed != nil {
			mark(c.Computed)
		} else {
			mark(&sql.ColumnRef{Name: c.Name})
		}
	}
	for i := range fields {
		if whole[i] {
			fields[i] = nil
		}
	}
	return read, fields
}
