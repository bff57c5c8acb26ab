package sql

import "strings"

// The Flink SQL client's statements, read from tokens: SET and RESET take
// quoted keys ('table.local-time-zone') that MySQL's SET cannot read, and
// SHOW and DESCRIBE are a word or a name.
//
//	SET ['key' = 'value']
//	RESET ['key']
//	SHOW TABLES | VIEWS | FUNCTIONS
//	DESCRIBE | DESC name

func parseSet(src *source, toks []token) (*Set, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	st := &Set{At: toks[0].pos}
	if p.i == len(toks) {
		return st, nil
	}
	k, err := p.str("a quoted key, as in SET 'table.local-time-zone' = 'UTC'")
	if err != nil {
		return nil, err
	}
	if k.value() == "" {
		return nil, Errorf(ErrInvalid, k.pos, "the key of SET must not be empty")
	}
	if err := p.op("="); err != nil {
		return nil, err
	}
	v, err := p.str("a quoted value, as in SET 'table.local-time-zone' = 'UTC'")
	if err != nil {
		return nil, err
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	st.Key, st.Value = k.value(), v.value()
	return st, nil
}

func parseReset(src *source, toks []token) (*Reset, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	r := &Reset{At: toks[0].pos}
	if p.i == len(toks) {
		return r, nil
	}
	k, err := p.str("a quoted key, as in RESET 'table.local-time-zone'")
	if err != nil {
		return nil, err
	}
	if k.value() == "" {
		return nil, Errorf(ErrInvalid, k.pos, "the key of RESET must not be empty")
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	r.Key = k.value()
	return r, nil
}

// showTargets are what SHOW lists; flinkShowTargets are the other things
// Flink's SHOW lists, which wsql does not have.
var (
	showTargets      = []string{"TABLES", "VIEWS", "FUNCTIONS"}
	flinkShowTargets = map[string]bool{
		"CATALOGS": true, "DATABASES": true, "CURRENT": true, "CREATE": true, "COLUMNS": true,
		"MODULES": true, "FULL": true, "JOBS": true, "PARTITIONS": true, "PROCEDURES": true,
		"USER": true, "JARS": true, "MATERIALIZED": true, "MODELS": true,
	}
)

func parseShow(src *source, toks []token) (*Show, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	t := p.peek()
	w := strings.ToUpper(t.text)
	switch {
	case t.kind != tokIdent:
		return nil, p.expected("TABLES, VIEWS or FUNCTIONS")
	case flinkShowTargets[w]:
		return nil, Errorf(ErrUnsupported, t.pos, "SHOW %s is not supported; use SHOW TABLES, SHOW VIEWS or SHOW FUNCTIONS", w)
	case w != "TABLES" && w != "VIEWS" && w != "FUNCTIONS":
		return nil, Errorf(ErrSyntax, t.pos, "expected TABLES, VIEWS or FUNCTIONS after SHOW, found %s%s", t.text, DidYouMean(w, showTargets))
	}
	p.i++
	if n := p.peek(); n.is("LIKE") || n.is("ILIKE") || n.is("FROM") || n.is("IN") || n.is("NOT") {
		return nil, Errorf(ErrUnsupported, n.pos, "SHOW %s %s is not supported yet", w, strings.ToUpper(n.text))
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	return &Show{At: toks[0].pos, What: w}, nil
}

func parseDescribe(src *source, toks []token) (*Describe, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	if t := p.peek(); t.is("EXTENDED") && p.i+1 < len(toks) {
		return nil, Errorf(ErrUnsupported, t.pos, "DESCRIBE EXTENDED is not supported yet")
	}
	name, err := p.tableName("a table or view name")
	if err != nil {
		return nil, err
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	return &Describe{At: toks[0].pos, Name: name}, nil
}
