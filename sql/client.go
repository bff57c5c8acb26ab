package sql

import (
	"slices"
	"strings"
)

// The Flink SQL client's statements, read from tokens: SET and RESET take
// quoted keys ('table.local-time-zone') that MySQL's SET cannot read, and
// SHOW and DESCRIBE are a word or a name.
//
//	SET ['key' = 'value']
//	RESET ['key']
//	SHOW TABLES | VIEWS [[NOT] LIKE | ILIKE 'pattern'] | [USER] FUNCTIONS
//	SHOW COLUMNS FROM | IN name [[NOT] LIKE | ILIKE 'pattern']
//	SHOW CREATE TABLE | VIEW name
//	SHOW CURRENT CATALOG | DATABASE, SHOW CATALOGS | DATABASES
//	USE [CATALOG] name
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
	showTargets      = []string{"TABLES", "VIEWS", "FUNCTIONS", "USER", "COLUMNS", "CREATE", "CURRENT", "CATALOGS", "DATABASES"}
	flinkShowTargets = map[string]bool{
		"MODULES": true, "FULL": true, "JOBS": true, "PARTITIONS": true, "PROCEDURES": true,
		"JARS": true, "MATERIALIZED": true, "MODELS": true,
	}
)

func parseShow(src *source, toks []token) (*Show, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	t := p.peek()
	w := strings.ToUpper(t.text)
	switch {
	case t.kind != tokIdent:
		return nil, p.expected("TABLES, VIEWS, FUNCTIONS, COLUMNS, CREATE or CURRENT")
	case flinkShowTargets[w]:
		return nil, Errorf(ErrUnsupported, t.pos, "SHOW %s is not supported", w)
	case !slices.Contains(showTargets, w):
		return nil, Errorf(ErrSyntax, t.pos, "expected TABLES, VIEWS, FUNCTIONS, COLUMNS, CREATE or CURRENT after SHOW, found %s%s", t.text, DidYouMean(w, showTargets))
	}
	p.i++
	s := &Show{At: toks[0].pos, What: w}
	switch w {
	case "USER":
		if !p.accept("FUNCTIONS") {
			return nil, p.expected("FUNCTIONS")
		}
		s.What = "USER FUNCTIONS"
	case "CREATE", "CURRENT":
		k := p.peek()
		kw := strings.ToUpper(k.text)
		if (w == "CREATE" && kw != "TABLE" && kw != "VIEW") || (w == "CURRENT" && kw != "CATALOG" && kw != "DATABASE") {
			return nil, p.expected(map[string]string{"CREATE": "TABLE or VIEW", "CURRENT": "CATALOG or DATABASE"}[w])
		}
		p.i++
		s.What += " " + kw
		if w == "CREATE" {
			name, err := p.tableName("a " + strings.ToLower(kw) + " name")
			if err != nil {
				return nil, err
			}
			s.Name = name
		}
	case "COLUMNS":
		if !p.accept("FROM") && !p.accept("IN") {
			return nil, p.expected("FROM or IN")
		}
		name, err := p.tableName("a table or view name")
		if err != nil {
			return nil, err
		}
		s.Name = name
	}
	if w == "TABLES" || w == "VIEWS" || w == "COLUMNS" {
		if n := p.peek(); n.is("FROM") || n.is("IN") {
			return nil, Errorf(ErrUnsupported, n.pos, "SHOW %s %s a database is not supported: wsql has one catalog and one database", w, strings.ToUpper(n.text))
		}
		s.NotLike = p.accept("NOT")
		if n := p.peek(); n.is("LIKE") || n.is("ILIKE") {
			p.i++
			s.Like = strings.ToUpper(n.text)
			pat, err := p.str("a quoted pattern, as in " + n.text + " 'c%'")
			if err != nil {
				return nil, err
			}
			s.Pattern = pat.value()
		} else if s.NotLike {
			return nil, p.expected("LIKE or ILIKE")
		}
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	return s, nil
}

// parseUse reads USE name and USE CATALOG name.
func parseUse(src *source, toks []token) (*Use, *Error) {
	p := &reader{src: src, toks: toks, i: 1}
	u := &Use{At: toks[0].pos}
	if len(toks) > 2 && toks[1].is("CATALOG") {
		u.Catalog = true
		p.i++
	}
	name, err := p.name("a " + map[bool]string{true: "catalog", false: "database"}[u.Catalog] + " name")
	if err != nil {
		return nil, err
	}
	if p.peek().isOp(".") {
		return nil, Errorf(ErrUnsupported, name.At, "qualified database names are not supported: wsql has one catalog and one database")
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	u.Name = name
	return u, nil
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
