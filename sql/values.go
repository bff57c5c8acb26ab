package sql

import "strings"

// Flink's VALUES, a table of literal rows:
//
//	FROM (VALUES (1, 'a'), (2, 'b')) [AS] t [(id, name)]
//	INSERT INTO t VALUES (1, 'a'), (2, 'b')
//
// MySQL has no VALUES table, so the rewriter reads it from tokens (each
// value parsed as an expression of its own) and hands TiDB a placeholder
// table name (__wsql_values_0) that the lifter replaces, as for window TVFs.

// parseFromValues reads "(VALUES ...) [AS] t [(cols)]" starting at toks[i]
// (the "(") and returns it with the index after it.
func parseFromValues(src *source, toks []token, i int) (*Values, int, *Error) {
	p := &reader{src: src, toks: toks, i: i + 1}
	v, err := p.values()
	if err != nil {
		return nil, 0, err
	}
	if err := p.op(")"); err != nil {
		return nil, 0, err
	}
	p.accept("AS")
	if t := p.peek(); t.kind == tokQuotedIdent || t.kind == tokIdent && !notAlias[strings.ToUpper(t.text)] {
		p.i++
		v.Alias = t.value()
		if p.peek().isOp("(") {
			if v.Columns, err = p.nameList("a column name"); err != nil {
				return nil, 0, err
			}
			if len(v.Columns) != len(v.Rows[0]) {
				return nil, 0, Errorf(ErrInvalid, t.pos, "%s names %d columns, but its VALUES rows have %d", t.value(), len(v.Columns), len(v.Rows[0]))
			}
		}
	}
	return v, p.i, nil
}

// valuesQuery reads a query that is VALUES alone (INSERT INTO t VALUES
// ..., CREATE VIEW v AS VALUES ...) as SELECT * FROM (VALUES ...).
func valuesQuery(src *source, toks []token) (*Select, *Error) {
	p := &reader{src: src, toks: toks}
	v, err := p.values()
	if err != nil {
		return nil, err
	} else if err := p.done(); err != nil {
		return nil, err
	}
	return &Select{At: v.At, Items: []SelectItem{{At: v.At, Star: true}}, From: TableRef{Values: v, At: v.At}}, nil
}

// values reads VALUES row, ... where a row is (expr, ...) or one
// expression; every row has as many values as the first.
func (p *reader) values() (*Values, *Error) {
	v := &Values{At: p.peek().pos}
	if !p.accept("VALUES") {
		return nil, p.expected("VALUES")
	}
	for {
		at := tokPos(p.toks, p.i)
		var row []Expr
		if p.peek().isOp("(") {
			p.i++
			for {
				e, err := p.expr(false)
				if err != nil {
					return nil, err
				}
				row = append(row, e)
				if p.peek().isOp(",") {
					p.i++
					continue
				}
				if err := p.op(")"); err != nil {
					return nil, err
				}
				break
			}
		} else {
			e, err := p.expr(false)
			if err != nil {
				return nil, err
			}
			row = []Expr{e}
		}
		if len(v.Rows) > 0 && len(row) != len(v.Rows[0]) {
			return nil, Errorf(ErrInvalid, at, "every row of VALUES must have %d values, as the first; this one has %d", len(v.Rows[0]), len(row))
		}
		v.Rows = append(v.Rows, row)
		if !p.peek().isOp(",") {
			return v, nil
		}
		p.i++
	}
}
