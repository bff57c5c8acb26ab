package sql

// CREATE VIEW is read from tokens up to AS; the query after AS goes
// through TiDB (query.go), and its text is kept as written so the catalog
// can show the view the way the user defined it.
//
//	CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name [(col, ...)] [COMMENT 'text'] AS query

// isCreateView reports whether a statement is CREATE [TEMPORARY] VIEW.
func isCreateView(toks []token) bool {
	return wordsAt(toks, 0, "CREATE", "VIEW") || wordsAt(toks, 0, "CREATE", "TEMPORARY", "VIEW")
}

func parseCreateView(src *source, toks []token) (*CreateView, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	v := &CreateView{At: toks[0].pos}
	v.Temporary = p.accept("TEMPORARY")
	p.i++ // VIEW
	if p.peek().is("IF") {
		if !p.accept("IF", "NOT", "EXISTS") {
			return nil, p.expected("IF NOT EXISTS")
		}
		v.IfNotExists = true
	}
	var err *Error
	if v.Name, err = p.tableName("a view name"); err != nil {
		return nil, err
	}
	if p.peek().isOp("(") {
		if v.Columns, err = p.nameList("a column name"); err != nil {
			return nil, err
		}
	}
	if p.accept("COMMENT") {
		c, err := p.str("a quoted comment")
		if err != nil {
			return nil, err
		}
		v.Comment = c.value()
	}
	if !p.accept("AS") {
		return nil, p.expected("AS and the query of the view")
	}
	q := toks[p.i:]
	if v.Query, err = parseQuery(src, q, endPos(toks)); err != nil {
		return nil, err
	}
	v.QueryText = src.text[q[0].off:src.endWithHints(q[len(q)-1].end)]
	return v, nil
}
