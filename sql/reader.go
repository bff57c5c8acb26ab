package sql

import "strings"

// reader walks the tokens of one statement for the statements read from
// tokens directly rather than through TiDB (CREATE TABLE, CREATE VIEW,
// DROP, the SQL client statements, INSERT's head). Its errors say what it
// expected at the token it stopped on.
type reader struct {
	src  *source
	toks []token
	i    int
}

// peek returns the current token, or a zero token at the end.
func (p *reader) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{}
}

func (p *reader) name(what string) (Ident, *Error) {
	t := p.peek()
	if !t.isName() {
		return Ident{}, p.expected(what)
	}
	p.i++
	return Ident{Name: t.value(), At: t.pos}, nil
}

func (p *reader) str(what string) (token, *Error) {
	t := p.peek()
	if t.kind != tokString {
		return token{}, p.expected(what)
	}
	p.i++
	return t, nil
}

func (p *reader) op(op string) *Error {
	if !p.peek().isOp(op) {
		return p.expected(`"` + op + `"`)
	}
	p.i++
	return nil
}

// expected reports what the reader wanted at the current token.
func (p *reader) expected(what string) *Error {
	if p.i >= len(p.toks) {
		return Errorf(ErrSyntax, endPos(p.toks), "expected %s at end of statement", what)
	}
	t := p.toks[p.i]
	return Errorf(ErrSyntax, t.pos, "expected %s, found %s", what, strings.TrimSpace(t.text))
}

// accept consumes the unquoted words ws when they come next.
func (p *reader) accept(ws ...string) bool {
	if !wordsAt(p.toks, p.i, ws...) {
		return false
	}
	p.i += len(ws)
	return true
}

// tableName reads the name of a table or view; qualified names are not
// supported yet.
func (p *reader) tableName(what string) (Ident, *Error) {
	if t := p.peek(); t.kind == tokIdent && flinkReserved[strings.ToUpper(t.text)] {
		return Ident{}, Errorf(ErrSyntax, t.pos, "expected %s, found the keyword %s; back-quote a name that is a keyword: `%s`", what, t.text, t.text)
	}
	name, err := p.name(what)
	if err != nil {
		return Ident{}, err
	}
	if p.peek().isOp(".") {
		return Ident{}, Errorf(ErrUnsupported, name.At, "qualified table names are not supported yet")
	}
	return name, nil
}

// nameList reads "(a, b, ...)" of column names.
func (p *reader) nameList(what string) ([]Ident, *Error) {
	if err := p.op("("); err != nil {
		return nil, err
	}
	var out []Ident
	for {
		n, err := p.name(what)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if p.peek().isOp(",") {
			p.i++
			continue
		}
		return out, p.op(")")
	}
}

// done reports an error unless every token was read.
func (p *reader) done() *Error {
	if p.i < len(p.toks) {
		return p.expected("the end of the statement")
	}
	return nil
}
