package sql

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// Parse parses one or more statements separated by ';' (a trailing ';' is
// optional; -- and /* */ comments may appear anywhere). Positions in the
// statements and in errors refer to src. On failure it returns no
// statements and an ErrorList with one error per failing statement.
func Parse(src string) (stmts []Statement, err error) {
	defer catchBug(&err)
	s := newSource(src)
	toks, lerr := lex(s)
	if lerr != nil {
		return nil, ErrorList{lerr}
	}
	var errs ErrorList
	parts := splitStatements(toks)
	for i := 0; i < len(parts); i++ {
		part := parts[i]
		if n, _ := setHead(part); n > 0 {
			st, used, e := groupStatementSet(s, parts[i:])
			i += used - 1
			if e != nil {
				errs = append(errs, e)
				continue
			}
			stmts = append(stmts, st)
			continue
		}
		st, e := parseWithHints(s, part)
		if e != nil {
			errs = append(errs, e)
			continue
		}
		stmts = append(stmts, st)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return stmts, nil
}

// ParseExpr parses a single expression, such as a watermark expression.
func ParseExpr(src string) (e Expr, err error) {
	defer catchBug(&err)
	s := newSource(src)
	toks, lerr := lex(s)
	if lerr != nil {
		return nil, ErrorList{lerr}
	}
	for _, t := range toks {
		if t.isOp(";") {
			return nil, ErrorList{Errorf(ErrSyntax, t.pos, "unexpected ; in an expression")}
		}
		if t.kind == tokHintStart {
			return nil, ErrorList{misplacedHint(t.pos)}
		}
	}
	if err := checkParens(toks); err != nil {
		return nil, ErrorList{err}
	}
	e, perr := parseExprTokens(s, toks)
	if perr != nil {
		return nil, ErrorList{perr}
	}
	return e, nil
}

// parseWithHints parses one statement after taking its hints out of the
// tokens (hints.go); a table hint no table reference took is an error.
func parseWithHints(s *source, toks []token) (Statement, *Error) {
	s.hints, s.hintsEnd = nil, 0
	toks, err := takeHints(s, toks)
	if err != nil {
		return nil, err
	}
	st, err := parseStatement(s, toks)
	if err == nil {
		err = s.untakenHint()
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}

// splitStatements cuts the tokens at ';'. The lexer already put strings
// and comments inside tokens or away, so a ';' token always ends a
// statement. Empty statements are dropped.
func splitStatements(toks []token) [][]token {
	var out [][]token
	start := 0
	for i, t := range toks {
		if t.isOp(";") {
			if i > start {
				out = append(out, toks[start:i])
			}
			start = i + 1
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

// flinkOnlyStatements start statements wsql does not run; when TiDB cannot
// parse one (CREATE FUNCTION is not MySQL), saying so beats a syntax error.
var flinkOnlyStatements = map[string]bool{
	"INSERT": true, "SET": true, "RESET": true, "SHOW": true, "USE": true, "DESCRIBE": true,
	"DESC": true, "EXPLAIN": true, "DROP": true, "ALTER": true, "LOAD": true, "UNLOAD": true,
	"EXECUTE": true, "BEGIN": true, "END": true, "ADD": true, "REMOVE": true, "CREATE": true,
	"ANALYZE": true, "CALL": true, "TRUNCATE": true, "DELETE": true, "UPDATE": true,
}

// parseStatement picks the reader by the leading words: the statements
// MySQL's grammar does not fit are read from tokens (their queries still
// go through TiDB), everything else goes to TiDB whole.
func parseStatement(s *source, toks []token) (Statement, *Error) {
	if err := checkParens(toks); err != nil {
		return nil, err
	}
	first := toks[0]
	switch {
	case isCreateTable(toks):
		return parseCreateTable(s, toks)
	case isCreateView(toks):
		return parseCreateView(s, toks)
	case isFunctionDDL(toks):
		return parseFunctionDDL(s, toks)
	case wordsAt(toks, 0, "CREATE", "OR", "REPLACE"):
		return nil, Errorf(ErrUnsupported, toks[1].pos, "CREATE OR REPLACE is not supported yet")
	case first.is("DROP"):
		return parseDrop(s, toks)
	case first.is("SET"):
		return parseSet(s, toks)
	case first.is("RESET"):
		return parseReset(s, toks)
	case first.is("SHOW"):
		return parseShow(s, toks)
	case first.is("USE"):
		return parseUse(s, toks)
	case first.is("DESCRIBE"), first.is("DESC"):
		return parseDescribe(s, toks)
	case first.is("EXPLAIN"):
		return parseExplain(s, toks)
	case first.is("INSERT"):
		return parseInsert(s, toks)
	case first.is("BEGIN"), first.is("END"):
		if st, err := parseClientSet(s, toks); st != nil || err != nil {
			return st, err
		}
	}
	return parseTiDB(s, toks)
}

// parseTiDB parses one statement through the rewriter, TiDB and the lifter.
func parseTiDB(s *source, toks []token) (Statement, *Error) {
	rw, err := rewrite(s, toks, "")
	if err != nil {
		return nil, err
	}
	nodes, off, perr := tidbParse(rw.text)
	if perr != nil {
		if flinkOnlyStatements[strings.ToUpper(toks[0].text)] && toks[0].kind == tokIdent {
			return nil, unsupportedStatement(toks)
		}
		return nil, syntaxError(rw, off)
	}
	if len(nodes) != 1 {
		return nil, Errorf(ErrSyntax, toks[0].pos, "expected one statement")
	}
	l := newLifter(rw)
	return l.statement(nodes[0])
}

// parseExprTokens parses toks as one expression by handing TiDB
// "SELECT <expr>" and lifting the single select item.
func parseExprTokens(s *source, toks []token) (Expr, *Error) {
	if len(toks) == 0 {
		return nil, Errorf(ErrSyntax, Pos{Line: 1, Col: 1}, "expected an expression")
	}
	rw, err := rewrite(s, toks, "SELECT ")
	if err != nil {
		return nil, err
	}
	nodes, off, perr := tidbParse(rw.text)
	if perr != nil {
		return nil, syntaxError(rw, off)
	}
	l := newLifter(rw)
	sel, ok := nodes[0].(*ast.SelectStmt)
	switch {
	case !ok || len(nodes) != 1 || sel.Kind != ast.SelectStmtKindSelect || sel.Distinct:
		return nil, Errorf(ErrSyntax, toks[0].pos, "expected an expression")
	case len(sel.Fields.Fields) != 1:
		return nil, Errorf(ErrSyntax, l.findWord(","), "expected one expression, found a list")
	case sel.From != nil || sel.Where != nil || sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil || sel.Limit != nil:
		p := l.findWord("FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT")
		return nil, Errorf(ErrSyntax, p, "unexpected text after the expression")
	case sel.Fields.Fields[0].WildCard != nil:
		return nil, Errorf(ErrSyntax, toks[0].pos, "expected an expression, found *")
	case sel.Fields.Fields[0].AsName.O != "":
		// TiDB read a trailing word as an alias.
		return nil, Errorf(ErrSyntax, toks[len(toks)-1].pos, "unexpected %s after the expression", toks[len(toks)-1].text)
	}
	return l.expr(sel.Fields.Fields[0].Expr)
}

// typoKeywords are the words a syntax error checks the user's words
// against, to suggest the keyword that was probably meant.
var typoKeywords = []string{
	"SELECT", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "CREATE", "TABLE", "WATERMARK",
	"INTERVAL", "DISTINCT", "BETWEEN", "NULL", "CAST", "CASE", "WHEN", "THEN", "ELSE", "WITH",
	"INSERT", "INTO", "VALUES", "TUMBLE", "SESSION", "CUMULATE", "SECOND", "MINUTE", "HOUR",
}

// syntaxError builds the error for a TiDB syntax error at offset rewOff of
// the rewritten text, quoting the user's text from there to the end of
// the line. A misspelled keyword just before the point where TiDB gave up
// (SELECT a FORM t fails at t) is blamed instead, with a suggestion.
func syntaxError(rw *rewritten, rewOff int) *Error {
	toks := rw.toks
	i := 0 // the token TiDB stopped at; the start when it gave no offset
	if rewOff >= 0 {
		orig := rw.splices.toOrig(rewOff)
		for i < len(toks) && toks[i].end <= orig {
			i++
		}
	}
	if err := starArgTypo(toks, i); err != nil {
		return err
	}
	hint := ""
	for _, k := range []int{i - 1, i} {
		if k >= 0 && k < len(toks) && toks[k].kind == tokIdent {
			if h := DidYouMean(strings.ToUpper(toks[k].text), typoKeywords); h != "" {
				i, hint = k, h
				break
			}
		}
	}
	if i >= len(toks) {
		return Errorf(ErrSyntax, endPos(toks), "syntax error at end of input%s", hint)
	}
	return Errorf(ErrSyntax, toks[i].pos, "syntax error near %q%s", nearText(rw.src.text, toks[i].off, toks[len(toks)-1].end), hint)
}

// starArgTypo blames a misspelled COUNT in NAME(*), which TiDB rejects
// at the star (only COUNT takes one), with the suggestion the planner
// gives for NAME(x); nil when toks[i] is not such a star.
func starArgTypo(toks []token, i int) *Error {
	if i < 2 || i >= len(toks) || !toks[i].isOp("*") || !toks[i-1].isOp("(") || toks[i-2].kind != tokIdent {
		return nil
	}
	name := strings.ToUpper(toks[i-2].text)
	if hint := DidYouMean(name, []string{"COUNT"}); hint != "" {
		return Errorf(ErrInvalid, toks[i-2].pos, "unknown function %s%s", name, hint)
	}
	return nil
}

// nearText is the user's text from off to the end of its line (or of the
// statement), cut to a readable length.
func nearText(text string, off, stmtEnd int) string {
	s := text[off:stmtEnd]
	if nl := strings.IndexAny(s, "\r\n"); nl >= 0 {
		s = s[:nl]
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "..."
	}
	return s
}

// bug is a panic value for broken internal invariants; catchBug turns any
// panic into an error so none leaves the package.
type bug string

func catchBug(err *error) {
	if r := recover(); r != nil {
		*err = ErrorList{Errorf(ErrSyntax, Pos{}, "internal parser error: %v", fmt.Sprint(r))}
	}
}
