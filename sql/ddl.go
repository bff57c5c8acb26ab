package sql

// CREATE TABLE is read from tokens rather than through TiDB: its Flink
// parts (STRING and TIMESTAMP_LTZ types, WATERMARK FOR, WITH options,
// computed columns without a type) are most of it, and a direct reader can
// say exactly what it expected where. The expressions inside it (watermark,
// computed columns) still go through TiDB, via parseExprTokens.
//
//	CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (
//	    name type [NOT NULL | NULL] [COMMENT 'text']
//	  | name AS expr [COMMENT 'text']
//	  | WATERMARK FOR name AS expr
//	  , ...
//	) [COMMENT 'text'] [WITH ('key' = 'value', ...)]

// isCreateTable reports whether a statement is CREATE [TEMPORARY] TABLE.
func isCreateTable(toks []token) bool {
	return wordsAt(toks, 0, "CREATE", "TABLE") || wordsAt(toks, 0, "CREATE", "TEMPORARY", "TABLE")
}

func parseCreateTable(src *source, toks []token) (*CreateTable, *Error) {
	p := &reader{src: src, toks: toks}
	ct := &CreateTable{At: toks[0].pos}
	p.i = 2
	if p.peek().is("TEMPORARY") {
		p.i++ // wsql's tables live as long as the session anyway
	}
	if p.peek().is("IF") {
		if !wordsAt(toks, p.i, "IF", "NOT", "EXISTS") {
			return nil, p.expected("IF NOT EXISTS")
		}
		ct.IfNotExists = true
		p.i += 3
	}
	name, err := p.tableName("a table name")
	if err != nil {
		return nil, err
	}
	ct.Name = name
	if p.peek().is("LIKE") {
		return nil, Errorf(ErrUnsupported, p.peek().pos, "CREATE TABLE ... LIKE is not supported yet")
	}
	if err := p.op("("); err != nil {
		return nil, err
	}
	for {
		if err := p.element(ct); err != nil {
			return nil, err
		}
		if p.peek().isOp(",") {
			p.i++
			continue
		}
		if !p.peek().isOp(")") {
			return nil, p.expected(`"," or ")" after the column definition`)
		}
		p.i++
		break
	}
	if p.peek().is("COMMENT") {
		p.i++
		s, err := p.str("a quoted comment")
		if err != nil {
			return nil, err
		}
		ct.Comment = s.value()
	}
	if p.peek().is("PARTITIONED") {
		return nil, Errorf(ErrUnsupported, p.peek().pos, "PARTITIONED BY is not supported yet")
	}
	if p.peek().is("WITH") {
		p.i++
		if ct.Options, err = p.options(); err != nil {
			return nil, err
		}
	}
	if p.peek().is("LIKE") {
		return nil, Errorf(ErrUnsupported, p.peek().pos, "CREATE TABLE ... LIKE is not supported yet")
	}
	if p.i < len(toks) {
		return nil, p.expected("WITH (...) or the end of the statement")
	}
	return ct, nil
}

// element reads one entry of the column list.
func (p *reader) element(ct *CreateTable) *Error {
	t := p.peek()
	switch {
	case wordsAt(p.toks, p.i, "WATERMARK", "FOR"):
		if ct.Watermark != nil {
			return Errorf(ErrInvalid, t.pos, "a table can have only one WATERMARK")
		}
		p.i += 2
		col, err := p.name("the rowtime column after WATERMARK FOR")
		if err != nil {
			return err
		}
		if !p.peek().is("AS") {
			return p.expected("AS and the watermark expression")
		}
		p.i++
		e, err := p.expr(false)
		if err != nil {
			return err
		}
		ct.Watermark = &WatermarkDef{At: t.pos, Column: col, Expr: e}
		return nil
	case wordsAt(p.toks, p.i, "PRIMARY", "KEY"), t.is("CONSTRAINT"):
		return Errorf(ErrUnsupported, t.pos, "PRIMARY KEY constraints are not supported yet")
	}
	name, err := p.name("a column name")
	if err != nil {
		return err
	}
	col := ColumnDef{Name: name}
	if p.peek().is("AS") {
		p.i++
		if col.Computed, err = p.expr(true); err != nil {
			return err
		}
	} else {
		if col.Type, p.i, err = parseType(p.toks, p.i); err != nil {
			return err
		}
		switch {
		case wordsAt(p.toks, p.i, "NOT", "NULL"):
			col.NotNull = true
			p.i += 2
		case p.peek().is("NULL"):
			p.i++
		}
		switch t := p.peek(); {
		case t.is("METADATA"):
			return Errorf(ErrUnsupported, t.pos, "METADATA columns are not supported yet")
		case t.is("PRIMARY"):
			return Errorf(ErrUnsupported, t.pos, "PRIMARY KEY constraints are not supported yet")
		}
	}
	if p.peek().is("COMMENT") {
		p.i++
		s, err := p.str("a quoted comment")
		if err != nil {
			return err
		}
		col.Comment = s.value()
	}
	ct.Columns = append(ct.Columns, col)
	return nil
}

// expr reads an expression up to the ',' or ')' that ends the element (or
// its COMMENT when computed is set) and parses it through TiDB.
func (p *reader) expr(computed bool) (Expr, *Error) {
	start, depth := p.i, 0
	for ; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		if depth == 0 && (t.isOp(",") || t.isOp(")") || (computed && t.is("COMMENT"))) {
			break
		}
		if t.isOp("(") {
			depth++
		} else if t.isOp(")") {
			depth--
		}
	}
	if p.i == start {
		return nil, p.expected("an expression")
	}
	return parseExprTokens(p.src, p.toks[start:p.i])
}

// options reads ('key' = 'value', ...) after WITH.
func (p *reader) options() ([]Option, *Error) {
	if err := p.op("("); err != nil {
		return nil, err
	}
	var opts []Option
	seen := map[string]bool{}
	for {
		k, err := p.str("a quoted option key such as 'connector'")
		if err != nil {
			return nil, err
		}
		if err := p.op("="); err != nil {
			return nil, err
		}
		v, err := p.str("a quoted option value")
		if err != nil {
			return nil, err
		}
		if seen[k.value()] {
			return nil, Errorf(ErrInvalid, k.pos, "option %s is set twice", k.text)
		}
		seen[k.value()] = true
		opts = append(opts, Option{Key: k.value(), Value: v.value(), At: k.pos})
		if p.peek().isOp(",") {
			p.i++
			continue
		}
		if err := p.op(")"); err != nil {
			return nil, err
		}
		return opts, nil
	}
}
