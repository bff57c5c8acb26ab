package jsonform

import (
	"fmt"
	"strconv"
	"strings"
)

// Forms are the JSON functions whose calls have clauses.
var Forms = map[string]bool{"JSON_VALUE": true, "JSON_QUERY": true, "JSON_EXISTS": true,
	"JSON_OBJECT": true, "JSON_ARRAY": true, "JSON_OBJECTAGG": true, "JSON_ARRAYAGG": true}

// Token is what the reader needs of a token: Word is an unquoted word in
// upper case ("" otherwise), Op an operator or punctuation ("" otherwise).
type Token struct{ Word, Op string }

// Clauses are a call's clauses as written ("" when not written).
type Clauses struct {
	// Returning is the index of RETURNING's type, -1 without one.
	Returning int
	// Wrapper is WITHOUT, CONDITIONAL or UNCONDITIONAL (ARRAY WRAPPER).
	Wrapper string
	// OnEmpty and OnError are NULL, ERROR, DEFAULT, EMPTY ARRAY, EMPTY
	// OBJECT, TRUE, FALSE or UNKNOWN.
	OnEmpty, OnError string
	// OnNull is NULL or ABSENT.
	OnNull string
	// Type and Not are IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT].
	Type string
	Not  bool
}

// Edit replaces tokens [i, End) by Text.
type Edit struct {
	End  int
	Text string
}

// Error is a syntax error at token At.
type Error struct {
	At  int
	Msg string
}

func errorf(at int, format string, args ...any) *Error {
	return &Error{At: at, Msg: fmt.Sprintf(format, args...)}
}

// Call reads the call toks[0] (a name of Forms), toks[1] "(", up to its
// closing parenthesis. The edits turn it into placeholder(k, args...),
// the DEFAULT values among the arguments after the path. typeEnd reads
// the type at an index and returns the index after it.
func Call(toks []Token, placeholder string, k int, typeEnd func(int) (int, bool)) (*Clauses, map[int]Edit, *Error) {
	name := toks[0].Word
	c := &Clauses{Returning: -1}
	edits := map[int]Edit{0: {1, placeholder}}
	open := "(" + strconv.Itoa(k)
	if len(toks) > 2 && toks[2].Op != ")" {
		open += ","
	}
	edits[1] = Edit{2, open}
	// the tokens directly inside the parentheses
	var top []int
	closing := -1
	for j, depth := 1, 0; j < len(toks) && closing < 0; j++ {
		switch toks[j].Op {
		case "(", "[":
			depth++
		case ")", "]":
			if depth--; depth == 0 {
				closing = j
			}
		}
		if depth == 1 && j > 1 {
			top = append(top, j)
		}
	}
	if closing < 0 {
		return nil, nil, errorf(0, "%s is not closed: missing )", name)
	}
	var err *Error
	switch name {
	case "JSON_OBJECT", "JSON_OBJECTAGG":
		err = pairs(toks, top, closing, name, c, edits)
	case "JSON_ARRAY", "JSON_ARRAYAGG":
		onNull(toks, top, closing, c, edits)
	default:
		err = pathClauses(toks, top, closing, name, c, edits, typeEnd)
	}
	return c, edits, err
}

// onNull reads a trailing NULL ON NULL or ABSENT ON NULL and returns where
// the arguments end.
func onNull(toks []Token, top []int, closing int, c *Clauses, edits map[int]Edit) int {
	n := len(top)
	if n >= 3 && top[n-3] == closing-3 && toks[closing-1].Word == "NULL" && toks[closing-2].Word == "ON" &&
		(toks[closing-3].Word == "NULL" || toks[closing-3].Word == "ABSENT") {
		c.OnNull = toks[closing-3].Word
		edits[closing-3] = Edit{closing, ""}
		return closing - 3
	}
	return closing
}

// pairs reads [KEY] k VALUE v (or k : v), ... and ON NULL.
func pairs(toks []Token, top []int, closing int, name string, c *Clauses, edits map[int]Edit) *Error {
	end := onNull(toks, top, closing, c, edits)
	start, value := true, false
	for _, j := range top {
		if j >= end {
			break
		}
		t := toks[j]
		switch {
		case start && t.Word == "KEY" && j+1 < end && toks[j+1].Op != "," && toks[j+1].Word != "VALUE":
			edits[j] = Edit{j + 1, ""}
		case !value && (t.Word == "VALUE" || t.Op == ":"):
			edits[j] = Edit{j + 1, ","}
			value = true
		case t.Op == ",":
			if !value {
				return errorf(j, "expected VALUE after the key in %s, as in %s(KEY 'k' VALUE v)", name, name)
			}
			start, value = true, false
			continue
		}
		start = false
	}
	if !start && !value {
		return errorf(end, "expected VALUE after the key in %s, as in %s(KEY 'k' VALUE v)", name, name)
	}
	return nil
}

// pathClauses reads the clauses after the path of JSON_VALUE, JSON_QUERY
// and JSON_EXISTS.
func pathClauses(toks []Token, top []int, closing int, name string, c *Clauses, edits map[int]Edit, typeEnd func(int) (int, bool)) *Error {
	// The clauses start after the path, the second argument.
	commas, j := 0, -1
	for x, t := range top {
		if toks[t].Op == "," {
			commas++
			continue
		}
		if commas == 1 && x > 0 && toks[top[x-1]].Op != "," && startsClause(toks, t) {
			j = t
			break
		}
	}
	if j < 0 {
		return nil
	}
	for j < closing {
		t := toks[j]
		switch {
		case t.Word == "RETURNING" && c.Returning < 0 && name != "JSON_EXISTS":
			next, ok := typeEnd(j + 1)
			if !ok {
				return errorf(j+1, "")
			}
			c.Returning = j + 1
			edits[j] = Edit{next, ""}
			j = next
		case (t.Word == "WITH" || t.Word == "WITHOUT") && name == "JSON_QUERY" && c.Wrapper == "":
			next := j + 1
			c.Wrapper = "WITHOUT"
			if t.Word == "WITH" {
				c.Wrapper = "UNCONDITIONAL"
				if w := toks[next].Word; w == "CONDITIONAL" || w == "UNCONDITIONAL" {
					c.Wrapper = w
					next++
				}
			}
			if toks[next].Word == "ARRAY" {
				next++
			}
			if toks[next].Word != "WRAPPER" {
				return errorf(next, "expected WRAPPER, as in WITH CONDITIONAL ARRAY WRAPPER")
			}
			edits[j] = Edit{next + 1, ""}
			j = next + 1
		default:
			var err *Error
			if j, err = behaviorClause(toks, top, j, closing, name, c, edits); err != nil {
				return err
			}
		}
	}
	return nil
}

// behaviorClause reads "behaviour ON EMPTY|ERROR" at toks[j] and returns
// the index after it. A DEFAULT value's tokens stay, after a comma.
func behaviorClause(toks []Token, top []int, j, closing int, name string, c *Clauses, edits map[int]Edit) (int, *Error) {
	behavior, on := behaviorAt(toks, j, closing, name)
	if behavior == "" {
		return 0, errorf(j, "unexpected %s in %s: expected RETURNING, a wrapper or an ON EMPTY / ON ERROR clause", tokenText(toks[j]), name)
	}
	if behavior == "DEFAULT" {
		on = -1
		for _, x := range top {
			if x > j+1 && toks[x].Word == "ON" && x+1 < closing && (toks[x+1].Word == "EMPTY" || toks[x+1].Word == "ERROR") {
				on = x
				break
			}
		}
		if on < 0 {
			return 0, errorf(j, "expected DEFAULT value ON EMPTY or ON ERROR")
		}
		edits[j] = Edit{j + 1, ","}
	} else {
		edits[j] = Edit{on, ""}
	}
	if on+1 >= closing || toks[on].Word != "ON" || (toks[on+1].Word != "EMPTY" && toks[on+1].Word != "ERROR") {
		return 0, errorf(on, "expected ON EMPTY or ON ERROR after %s in %s", behavior, name)
	}
	switch when := toks[on+1].Word; {
	case when == "EMPTY" && name == "JSON_EXISTS":
		return 0, errorf(on, "JSON_EXISTS has no ON EMPTY clause, only ON ERROR")
	case when == "EMPTY" && (c.OnEmpty != "" || c.OnError != ""):
		return 0, errorf(on, "ON EMPTY must come once, before ON ERROR")
	case when == "ERROR" && c.OnError != "":
		return 0, errorf(on, "ON ERROR must come once")
	case when == "EMPTY":
		c.OnEmpty = behavior
	default:
		c.OnError = behavior
	}
	edits[on] = Edit{on + 2, ""}
	return on + 2, nil
}

func tokenText(t Token) string {
	if t.Word != "" {
		return t.Word
	}
	if t.Op != "" {
		return t.Op
	}
	return "this"
}

// behaviors are the one-word behaviours of an ON EMPTY / ON ERROR clause.
var behaviors = map[string]bool{"NULL": true, "ERROR": true, "TRUE": true, "FALSE": true, "UNKNOWN": true}

// startsClause reports a clause word after the path.
func startsClause(toks []Token, j int) bool {
	switch w := toks[j].Word; {
	case w == "RETURNING" || w == "WITH" || w == "WITHOUT" || w == "DEFAULT":
		return true
	case j+1 < len(toks) && toks[j+1].Word == "ON" && behaviors[w]:
		return true
	}
	return toks[j].Word == "EMPTY" && j+2 < len(toks) && (toks[j+1].Word == "ARRAY" || toks[j+1].Word == "OBJECT") && toks[j+2].Word == "ON"
}

// behaviorAt reads the behaviour at toks[j] and the index after it; ""
// when there is none. Which behaviours a function takes is checked here.
func behaviorAt(toks []Token, j, closing int, name string) (string, int) {
	switch w := toks[j].Word; {
	case w == "DEFAULT" && name == "JSON_VALUE":
		return w, j + 1
	case w == "EMPTY" && name == "JSON_QUERY" && j+1 < closing && (toks[j+1].Word == "ARRAY" || toks[j+1].Word == "OBJECT"):
		return "EMPTY " + toks[j+1].Word, j + 2
	case w == "NULL" && name != "JSON_EXISTS", w == "ERROR":
		return w, j + 1
	case (w == "TRUE" || w == "FALSE" || w == "UNKNOWN") && name == "JSON_EXISTS":
		return w, j + 1
	}
	return "", j
}

// IsJSON reads IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT] from toks[0] (the
// IS) and returns the index after it, 0 when the tokens are not one.
func IsJSON(toks []Token) (int, *Clauses) {
	j := 1
	c := &Clauses{Type: "VALUE", Returning: -1}
	if j < len(toks) && toks[j].Word == "NOT" {
		c.Not = true
		j++
	}
	if j >= len(toks) || toks[j].Word != "JSON" {
		return 0, nil
	}
	j++
	if j < len(toks) {
		switch w := toks[j].Word; w {
		case "VALUE", "SCALAR", "ARRAY", "OBJECT":
			c.Type = w
			j++
		}
	}
	return j, c
}

// Format prints the clauses after a call's arguments: returning is the
// RETURNING type as written, defaults the DEFAULT values in order.
func (c *Clauses) Format(returning string, defaults []string) string {
	var b strings.Builder
	if returning != "" {
		b.WriteString(" RETURNING " + returning)
	}
	switch c.Wrapper {
	case "":
	case "WITHOUT":
		b.WriteString(" WITHOUT ARRAY WRAPPER")
	default:
		b.WriteString(" WITH " + c.Wrapper + " ARRAY WRAPPER")
	}
	for _, cl := range []struct{ b, on string }{{c.OnEmpty, "EMPTY"}, {c.OnError, "ERROR"}, {c.OnNull, "NULL"}} {
		switch {
		case cl.b == "DEFAULT" && len(defaults) > 0:
			b.WriteString(" DEFAULT " + defaults[0] + " ON " + cl.on)
			defaults = defaults[1:]
		case cl.b != "":
			b.WriteString(" " + cl.b + " ON " + cl.on)
		}
	}
	return b.String()
}
