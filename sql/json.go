package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"

	"github.com/wsql/wsql/sql/jsonform"
)

// Flink's JSON functions have clauses of their own grammar, read from the
// tokens by package jsonform; the rewriter applies its edits, so TiDB
// parses only the expressions:
//
//	JSON_VALUE(s, p RETURNING INT DEFAULT 0 ON EMPTY) -> __wsql_json_value(0, s, p , 0)
//	JSON_OBJECT(KEY 'k' VALUE v ABSENT ON NULL)      -> __wsql_json_object(0,  'k' , v)
//	x IS NOT JSON OBJECT                             -> x <=> __wsql_is_json(0)
//
// The lifter makes them FuncCalls with their JSONClauses (rw.jsons[0]); a
// DEFAULT value is an argument after the path, ON EMPTY's first.

// JSONClauses are the clauses of a JSON function call, as written ("" when
// not written): see jsonform.Clauses.
type JSONClauses struct {
	Returning                         *TypeName
	Wrapper, OnEmpty, OnError, OnNull string
	Type                              string
	Not                               bool
}

func jsonClauses(c *jsonform.Clauses, returning *TypeName) *JSONClauses {
	return &JSONClauses{Returning: returning, Wrapper: c.Wrapper, OnEmpty: c.OnEmpty, OnError: c.OnError,
		OnNull: c.OnNull, Type: c.Type, Not: c.Not}
}

func formTokens(toks []token) []jsonform.Token {
	out := make([]jsonform.Token, len(toks))
	for k, t := range toks {
		switch t.kind {
		case tokIdent:
			out[k].Word = strings.ToUpper(t.text)
		case tokOp:
			out[k].Op = t.text
		}
	}
	return out
}

// jsonCall reads the JSON function call at toks[i] into rw.jsons and
// returns the edits of its tokens, by index in toks.
func (rw *rewritten) jsonCall(toks []token, i int) (map[int]tokenEdit, *Error) {
	var tn *TypeName
	var typeErr *Error
	typeEnd := func(j int) (int, bool) {
		t, next, err := parseType(toks, i+j)
		tn, typeErr = &t, err
		return next - i, err == nil
	}
	name := strings.ToLower(toks[i].text)
	c, es, ferr := jsonform.Call(formTokens(toks[i:]), internalPrefix+name, len(rw.jsons), typeEnd)
	switch {
	case typeErr != nil:
		return nil, typeErr
	case ferr != nil:
		return nil, Errorf(ErrSyntax, tokPos(toks, i+ferr.At), "%s", ferr.Msg)
	}
	rw.jsons = append(rw.jsons, jsonClauses(c, tn))
	edits := map[int]tokenEdit{}
	for k, e := range es {
		edits[i+k] = tokenEdit{i + e.End, e.Text}
	}
	return edits, nil
}

// A tokenEdit replaces toks[i:end] by text.
type tokenEdit struct {
	end  int
	text string
}

// isJSON reads x IS [NOT] JSON [type] at toks[i] (the IS) into rw.jsons,
// and returns the index after it (i when it is not one) and its text.
func (rw *rewritten) isJSON(toks []token, i int) (int, string) {
	end := min(i+4, len(toks))
	n, c := jsonform.IsJSON(formTokens(toks[i:end]))
	if n == 0 {
		return i, ""
	}
	rw.jsons = append(rw.jsons, jsonClauses(c, nil))
	return i + n, "<=> " + internalPrefix + "is_json(" + strconv.Itoa(len(rw.jsons)-1) + ")"
}

// jsonCall lifts a placeholder call of a JSON function.
func (l *lifter) jsonCall(e *ast.FuncCallExpr, name string, at Pos) (Expr, *Error) {
	c := l.rw.jsons[l.sideIndex(e, 0, len(l.rw.jsons))]
	args, err := l.exprs(e.Args[1:])
	if err != nil {
		return nil, err
	}
	return &FuncCall{At: at, Name: name, Args: args, JSON: c}, nil
}

// isJSONCall lifts x <=> __wsql_is_json(k); ok is false for any other <=>.
func (l *lifter) isJSONCall(e *ast.BinaryOperationExpr, at Pos) (Expr, bool, *Error) {
	f, ok := e.R.(*ast.FuncCallExpr)
	if e.Op != opcode.NullEQ || !ok || internalName(f.FnName.L) != "IS_JSON" {
		return nil, false, nil
	}
	x, err := l.expr(e.L)
	if err != nil {
		return nil, true, err
	}
	c := l.rw.jsons[l.sideIndex(f, 0, len(l.rw.jsons))]
	return &FuncCall{At: at, Name: "IS JSON", Args: []Expr{x}, JSON: c}, true, nil
}
