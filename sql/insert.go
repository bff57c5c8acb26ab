package sql

// INSERT is read from tokens up to its query: Flink's INSERT OVERWRITE is
// not MySQL, and the query then goes through TiDB like any SELECT.
//
//	INSERT INTO|OVERWRITE name [(col, ...)] query | VALUES (expr, ...), ...

func parseInsert(src *source, toks []token) (*Insert, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	ins := &Insert{At: toks[0].pos}
	switch {
	case p.accept("INTO"):
	case p.accept("OVERWRITE"):
		ins.Overwrite = true
	default:
		return nil, p.expected("INTO or OVERWRITE")
	}
	var err *Error
	if ins.Table, err = p.tableName("the name of the table to insert into"); err != nil {
		return nil, err
	}
	ins.Hint = src.tableHint(ins.Table.At.Offset)
	if t := p.peek(); t.is("PARTITION") {
		return nil, Errorf(ErrUnsupported, t.pos, "INSERT ... PARTITION is not supported yet")
	}
	// "(" starts the column list unless it starts a query in parentheses.
	if p.peek().isOp("(") && p.i+1 < len(toks) && !toks[p.i+1].is("SELECT") && !toks[p.i+1].is("WITH") && !toks[p.i+1].isOp("(") {
		if ins.Columns, err = p.nameList("a column name"); err != nil {
			return nil, err
		}
	}
	if ins.Query, err = parseQuery(src, toks[p.i:], endPos(toks)); err != nil {
		return nil, err
	}
	return ins, nil
}
