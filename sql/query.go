package sql

// The statements read from tokens (CREATE VIEW, INSERT, EXPLAIN) end in a
// query. It goes through the rewriter, TiDB and the lifter like a SELECT
// statement of its own: its tokens keep their offsets in the user's text,
// so positions and error carets come out right without any shifting.

// parseQuery parses toks as the SELECT query of an enclosing statement;
// end is where the statement ends, for an error when the query is missing.
func parseQuery(s *source, toks []token, end Pos) (*Select, *Error) {
	if len(toks) == 0 {
		return nil, Errorf(ErrSyntax, end, "expected a SELECT query at end of statement")
	}
	t := toks[0]
	switch {
	case t.is("VALUES"):
		return valuesQuery(s, toks)
	case !t.is("SELECT") && !t.is("WITH") && !t.isOp("("):
		return nil, Errorf(ErrSyntax, t.pos, "expected a SELECT query, found %s", t.text)
	}
	st, err := parseTiDB(s, toks)
	if err != nil {
		return nil, err
	}
	sel, ok := st.(*Select)
	if !ok {
		return nil, Errorf(ErrSyntax, t.pos, "expected a SELECT query")
	}
	return sel, nil
}
