package sql

// DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] name, read from tokens: MySQL's
// DROP has no TEMPORARY VIEW, and other DROPs (FUNCTION, DATABASE, ...) are
// Flink statements wsql does not run.

func parseDrop(src *source, toks []token) (*Drop, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	d := &Drop{At: toks[0].pos}
	d.Temporary = p.accept("TEMPORARY")
	switch t := p.peek(); {
	case p.accept("TABLE"):
	case p.accept("VIEW"):
		d.View = true
	case t.kind == tokIdent && DidYouMean(t.text, []string{"TABLE", "VIEW"}) != "":
		return nil, Errorf(ErrSyntax, t.pos, "expected TABLE or VIEW, found %s%s", t.text, DidYouMean(t.text, []string{"TABLE", "VIEW"}))
	case t.kind == tokIdent:
		return nil, unsupportedStatement(toks)
	default:
		return nil, p.expected("TABLE or VIEW")
	}
	if p.peek().is("IF") {
		if !p.accept("IF", "EXISTS") {
			return nil, p.expected("IF EXISTS")
		}
		d.IfExists = true
	}
	var err *Error
	if d.Name, err = p.tableName("a name"); err != nil {
		return nil, err
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	return d, nil
}
