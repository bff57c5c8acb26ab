package sql

// CREATE [TEMPORARY] [SYSTEM] FUNCTION [IF NOT EXISTS] name AS 'identifier'
// and DROP [TEMPORARY] [SYSTEM] FUNCTION [IF EXISTS] name, read from
// tokens. The identifier names what the host program registered (in Flink,
// a class name).

// CreateFunction is CREATE FUNCTION name AS 'identifier'.
type CreateFunction struct {
	At                Pos
	Temporary, System bool
	IfNotExists       bool
	Name              Ident
	Identifier        string
	IdentifierAt      Pos
}

// DropFunction is DROP FUNCTION name.
type DropFunction struct {
	At                          Pos
	Temporary, System, IfExists bool
	Name                        Ident
}

func (s *CreateFunction) Pos() Pos { return s.At }
func (s *DropFunction) Pos() Pos   { return s.At }
func (*CreateFunction) statement() {}
func (*DropFunction) statement()   {}

// isFunctionDDL reports CREATE or DROP [TEMPORARY] [SYSTEM] FUNCTION.
func isFunctionDDL(toks []token) bool {
	i := 1
	for _, w := range []string{"TEMPORARY", "SYSTEM"} {
		if wordsAt(toks, i, w) {
			i++
		}
	}
	return (toks[0].is("CREATE") || toks[0].is("DROP")) && wordsAt(toks, i, "FUNCTION")
}

func parseFunctionDDL(src *source, toks []token) (Statement, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	temporary, system := p.accept("TEMPORARY"), p.accept("SYSTEM")
	p.i++ // FUNCTION
	create := toks[0].is("CREATE")
	ifExists := false
	if p.peek().is("IF") {
		words := map[bool][]string{true: {"IF", "NOT", "EXISTS"}, false: {"IF", "EXISTS"}}[create]
		if !p.accept(words...) {
			return nil, p.expected(map[bool]string{true: "IF NOT EXISTS", false: "IF EXISTS"}[create])
		}
		ifExists = true
	}
	name, err := p.name("a function name") // a keyword too: a built-in's name is refused by name
	if err != nil {
		return nil, err
	}
	if p.peek().isOp(".") {
		return nil, Errorf(ErrUnsupported, name.At, "qualified function names are not supported: wsql has one catalog and one database")
	}
	if !create {
		if err := p.done(); err != nil {
			return nil, err
		}
		return &DropFunction{At: toks[0].pos, Temporary: temporary, System: system, IfExists: ifExists, Name: name}, nil
	}
	if !p.accept("AS") {
		return nil, p.expected("AS 'name'")
	}
	id, err := p.str("the quoted name the function was registered under, as in AS 'my_function'")
	if err != nil {
		return nil, err
	}
	c := &CreateFunction{At: toks[0].pos, Temporary: temporary, System: system, IfNotExists: ifExists, Name: name, Identifier: id.value(), IdentifierAt: id.pos}
	if t := p.peek(); t.is("LANGUAGE") || t.is("USING") {
		return nil, Errorf(ErrUnsupported, t.pos, "%s is not supported: wsql's functions are Go functions the program registered (Engine.RegisterFunction)", t.text)
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	return c, nil
}
