package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
)

// Flink's JSON functions have clauses of their own grammar, which the
// rewriter reads from the tokens into rewritten.jsons and blanks out, so
// TiDB parses only the expressions:
//
//	JSON_VALUE(s, p RETURNING INT DEFAULT 0 ON EMPTY) -> __wsql_json_value(0, s, p , 0)
//	JSON_OBJECT(KEY 'k' VALUE v ABSENT ON NULL)      -> __wsql_json_object(0,  'k' , v)
//	x IS NOT JSON OBJECT                             -> x <=> __wsql_is_json(0)
//
// The lifter makes them FuncCalls with their JSONClauses; a DEFAULT value
// is an argument after the path (ON EMPTY's first).

// JSONClauses are the clauses of a JSON function call, as written ("" when
// not written).
type JSONClauses struct {
	// Returning is JSON_VALUE's and JSON_QUERY's RETURNING type.
	Returning *TypeName
	// Wrapper is JSON_QUERY's WITHOUT, CONDITIONAL or UNCONDITIONAL
	// (ARRAY WRAPPER).
	Wrapper string
	// OnEmpty and OnError are NULL, ERROR, DEFAULT, EMPTY ARRAY, EMPTY
	// OBJECT, TRUE, FALSE or UNKNOWN.
	OnEmpty, OnError string
	// OnNull is NULL or ABSENT (JSON_OBJECT, JSON_ARRAY and their
	// aggregates).
	OnNull string
	// Type and Not are IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT].
	Type string
	Not  bool
}

// jsonForms are the JSON functions whose calls the rewriter reads.
var jsonForms = wordSet("JSON_VALUE JSON_QUERY JSON_EXISTS JSON_OBJECT JSON_ARRAY JSON_OBJECTAGG JSON_ARRAYAGG")

// A tokenEdit replaces toks[i:end] by text.
type tokenEdit struct {
	end  int
	text string
}

// jsonCall reads the clauses of the JSON function call at toks[i] (its
// name, then "("), adds them to rw.jsons and returns the edits of its
// tokens.
func (rw *rewritten) jsonCall(toks []token, i int) (map[int]tokenEdit, *Error) {
	name := strings.ToUpper(toks[i].text)
	c := &JSONClauses{}
	k := len(rw.jsons)
	rw.jsons = append(rw.jsons, c)
	edits := map[int]tokenEdit{i: {i + 1, internalPrefix + strings.ToLower(name)}}
	open := "(" + strconv.Itoa(k)
	if i+2 < len(toks) && !toks[i+2].isOp(")") {
		open += ","
	}
	edits[i+1] = tokenEdit{i + 2, open}
	// the tokens directly inside the parentheses
	var top []int
	closing := -1
	for j, depth := i+1, 0; j < len(toks) && closing < 0; j++ {
		switch {
		case toks[j].isOp("(") || toks[j].isOp("["):
			depth++
		case toks[j].isOp(")") || toks[j].isOp("]"):
			if depth--; depth == 0 {
				closing = j
			}
		}
		if depth == 1 && j > i+1 {
			top = append(top, j)
		}
	}
	if closing < 0 {
		return nil, Errorf(ErrSyntax, toks[i].pos, "%s is not closed: missing )", name)
	}
	var err *Error
	switch name {
	case "JSON_OBJECT", "JSON_OBJECTAGG":
		err = jsonPairs(toks, top, closing, name, c, edits)
	case "JSON_ARRAY", "JSON_ARRAYAGG":
		jsonOnNull(toks, top, closing, c, edits)
	default:
		err = jsonPathClauses(toks, top, closing, name, c, edits)
	}
	return edits, err
}

// jsonOnNull reads a trailing NULL ON NULL or ABSENT ON NULL.
func jsonOnNull(toks []token, top []int, closing int, c *JSONClauses, edits map[int]tokenEdit) int {
	n := len(top)
	if n >= 3 && top[n-1] == closing-1 && toks[top[n-1]].is("NULL") && toks[top[n-2]].is("ON") &&
		(toks[top[n-3]].is("NULL") || toks[top[n-3]].is("ABSENT")) && top[n-3] == closing-3 {
		c.OnNull = strings.ToUpper(toks[top[n-3]].text)
		edits[top[n-3]] = tokenEdit{closing, ""}
		return top[n-3]
	}
	return closing
}

// jsonPairs reads [KEY] k VALUE v (or k : v), ... and ON NULL.
func jsonPairs(toks []token, top []int, closing int, name string, c *JSONClauses, edits map[int]tokenEdit) *Error {
	end := jsonOnNull(toks, top, closing, c, edits)
	start, value := true, false
	for _, j := range top {
		if j >= end {
			break
		}
		t := toks[j]
		switch {
		case start && t.is("KEY") && j+1 < end && !toks[j+1].isOp(",") && !toks[j+1].is("VALUE"):
			edits[j] = tokenEdit{j + 1, ""}
		case !value && (t.is("VALUE") || t.isOp(":")):
			edits[j] = tokenEdit{j + 1, ","}
			value = true
		case t.isOp(","):
			if !value {
				return Errorf(ErrSyntax, t.pos, "expected VALUE after the key in %s, as in %s(KEY 'k' VALUE v)", name, name)
			}
			start, value = true, false
			continue
		}
		start = false
	}
	if !start && !value {
		return Errorf(ErrSyntax, toks[end].pos, "expected VALUE after the key in %s, as in %s(KEY 'k' VALUE v)", name, name)
	}
	return nil
}

// jsonBehaviors are the words of an ON EMPTY / ON ERROR behaviour.
var jsonBehaviors = wordSet("NULL ERROR TRUE FALSE UNKNOWN")

// jsonPathClauses reads the clauses after the path of JSON_VALUE,
// JSON_QUERY and JSON_EXISTS.
func jsonPathClauses(toks []token, top []int, closing int, name string, c *JSONClauses, edits map[int]tokenEdit) *Error {
	// The clauses start after the path, the second argument.
	commas, first := 0, -1
	for x, j := range top {
		if toks[j].isOp(",") {
			commas++
			continue
		}
		if commas == 1 && x > 0 && !toks[top[x-1]].isOp(",") && startsJSONClause(toks, j) {
			first = j
			break
		}
	}
	if first < 0 {
		return nil
	}
	j := first
	for j < closing {
		t := toks[j]
		switch {
		case t.is("RETURNING") && c.Returning == nil && name != "JSON_EXISTS":
			tn, next, err := parseType(toks, j+1)
			if err != nil {
				return err
			}
			c.Returning = &tn
			edits[j] = tokenEdit{next, ""}
			j = next
		case (t.is("WITH") || t.is("WITHOUT")) && name == "JSON_QUERY" && c.Wrapper == "":
			next := j + 1
			c.Wrapper = "WITHOUT"
			if t.is("WITH") {
				c.Wrapper = "UNCONDITIONAL"
				if toks[next].is("CONDITIONAL") || toks[next].is("UNCONDITIONAL") {
					c.Wrapper = strings.ToUpper(toks[next].text)
					next++
				}
			}
			if toks[next].is("ARRAY") {
				next++
			}
			if !toks[next].is("WRAPPER") {
				return Errorf(ErrSyntax, toks[next].pos, "expected WRAPPER, as in WITH CONDITIONAL ARRAY WRAPPER")
			}
			edits[j] = tokenEdit{next + 1, ""}
			j = next + 1
		default:
			behavior, next := jsonBehavior(toks, j, closing, name)
			if behavior == "" {
				return Errorf(ErrSyntax, t.pos, "unexpected %s in %s: expected RETURNING, a wrapper or an ON EMPTY / ON ERROR clause", t.text, name)
			}
			on := next // the ON of the clause
			if behavior == "DEFAULT" {
				on = -1
				for _, x := range top {
					if x > j && toks[x].is("ON") && x+1 < closing && (toks[x+1].is("EMPTY") || toks[x+1].is("ERROR")) {
						on = x
						break
					}
				}
				if on < 0 || on == j+1 {
					return Errorf(ErrSyntax, t.pos, "expected DEFAULT value ON EMPTY or ON ERROR")
				}
				edits[j] = tokenEdit{j + 1, ","}
			} else {
				edits[j] = tokenEdit{on, ""}
			}
			if on+1 >= closing || !toks[on].is("ON") || !(toks[on+1].is("EMPTY") || toks[on+1].is("ERROR")) {
				return Errorf(ErrSyntax, tokPos(toks, on), "expected ON EMPTY or ON ERROR after %s in %s", behavior, name)
			}
			when := strings.ToUpper(toks[on+1].text)
			switch {
			case when == "EMPTY" && (c.OnEmpty != "" || c.OnError != ""):
				return Errorf(ErrSyntax, toks[on].pos, "ON EMPTY must come once, before ON ERROR")
			case when == "EMPTY" && name == "JSON_EXISTS":
				return Errorf(ErrSyntax, toks[on].pos, "JSON_EXISTS has no ON EMPTY clause, only ON ERROR")
			case when == "ERROR" && c.OnError != "":
				return Errorf(ErrSyntax, toks[on].pos, "ON ERROR must come once")
			case when == "EMPTY":
				c.OnEmpty = behavior
			default:
				c.OnError = behavior
			}
			edits[on] = tokenEdit{on + 2, ""}
			j = on + 2
			if behavior == "DEFAULT" {
				// the value's tokens are rewritten as any other; go on after ON
				continue
			}
		}
	}
	return nil
}

// startsJSONClause reports a clause word after the path.
func startsJSONClause(toks []token, j int) bool {
	t := toks[j]
	if t.is("RETURNING") || t.is("WITH") || t.is("WITHOUT") || t.is("DEFAULT") {
		return true
	}
	if j+1 < len(toks) && toks[j+1].is("ON") && jsonBehaviors[strings.ToUpper(t.text)] && t.kind == tokIdent {
		return true
	}
	return t.is("EMPTY") && j+2 < len(toks) && (toks[j+1].is("ARRAY") || toks[j+1].is("OBJECT")) && toks[j+2].is("ON")
}

// jsonBehavior reads the behaviour at toks[j] and the index after it; ""
// when there is none. Which behaviours a function takes is checked here.
func jsonBehavior(toks []token, j, closing int, name string) (string, int) {
	t := toks[j]
	w := strings.ToUpper(t.text)
	if t.kind != tokIdent {
		return "", j
	}
	switch {
	case w == "DEFAULT" && name == "JSON_VALUE":
		return w, j + 1
	case w == "EMPTY" && name == "JSON_QUERY" && j+1 < closing && (toks[j+1].is("ARRAY") || toks[j+1].is("OBJECT")):
		return "EMPTY " + strings.ToUpper(toks[j+1].text), j + 2
	case w == "NULL" && name != "JSON_EXISTS", w == "ERROR":
		return w, j + 1
	case (w == "TRUE" || w == "FALSE" || w == "UNKNOWN") && name == "JSON_EXISTS":
		return w, j + 1
	}
	return "", j
}

// isJSON reads x IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT] at toks[i] (the
// IS) into rw.jsons, and returns the index after it (i when it is not).
func (rw *rewritten) isJSON(toks []token, i int) (int, string) {
	j := i + 1
	c := &JSONClauses{Type: "VALUE"}
	if j < len(toks) && toks[j].is("NOT") {
		c.Not = true
		j++
	}
	if j >= len(toks) || !toks[j].is("JSON") {
		return i, ""
	}
	j++
	if j < len(toks) && (toks[j].is("VALUE") || toks[j].is("SCALAR") || toks[j].is("ARRAY") || toks[j].is("OBJECT")) {
		c.Type = strings.ToUpper(toks[j].text)
		j++
	}
	rw.jsons = append(rw.jsons, c)
	return j, "<=> " + internalPrefix + "is_json(" + strconv.Itoa(len(rw.jsons)-1) + ")"
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
