package sql

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wsql/wsql/sql/jsonform"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
)

// The lifter converts TiDB's AST into wsql's. TiDB records for every
// expression the offset of its first token in the text it parsed
// (OriginTextPosition); the splices map that offset back to the user's
// text, and the user's token there says what TiDB's AST cannot: how a
// number was written, whether a 1 was TRUE, whether CONCAT was ||, whether
// COUNT's argument was *. Anything wsql's AST cannot hold is an
// ErrUnsupported error at the position of the construct.

type lifter struct {
	rw *rewritten
	// scope holds the tokens of the query being lifted: the statement, or
	// a subquery in FROM (subquery.go), so clauses are looked for in it.
	scope []token
	depth int // expressions being lifted, one inside the other (nesting.go)
	// windows are the WINDOW clause's named windows of the SELECT being
	// lifted, which OVER w refers to (over.go).
	windows []ast.WindowSpec
}

func newLifter(rw *rewritten) *lifter { return &lifter{rw: rw, scope: rw.toks} }

// pos maps an offset of the rewritten text to a position of the user's text.
func (l *lifter) pos(rewOff int) Pos { return l.rw.src.pos(l.rw.splices.toOrig(rewOff)) }

// tokenAt returns the index of the user's token that starts where the node
// at rewOff starts, or -1.
func (l *lifter) tokenAt(rewOff int) int {
	off := l.rw.splices.toOrig(rewOff)
	toks := l.rw.toks
	i := sort.Search(len(toks), func(i int) bool { return toks[i].off >= off })
	if i < len(toks) && toks[i].off == off {
		return i
	}
	return -1
}

// exprPos is the position of an expression's first token.
func (l *lifter) exprPos(e ast.ExprNode) Pos { return l.pos(e.OriginTextPosition()) }

// start is the position of the query's first token.
func (l *lifter) start() Pos { return l.scope[0].pos }

// findWord returns the position of the first unquoted word among words
// outside parentheses, or the statement start. It places errors for
// clauses TiDB's AST records without an offset (ORDER BY, JOIN ...).
func (l *lifter) findWord(words ...string) Pos {
	depth := 0
	for _, t := range l.scope {
		switch {
		case t.isOp("("):
			depth++
		case t.isOp(")"):
			depth--
		case depth == 0:
			for _, w := range words {
				if t.is(w) || t.isOp(w) {
					return t.pos
				}
			}
		}
	}
	return l.start()
}

func (l *lifter) unsupported(p Pos, format string, args ...any) *Error {
	return Errorf(ErrUnsupported, p, format, args...)
}

func (l *lifter) statement(n ast.StmtNode) (Statement, *Error) {
	switch n := n.(type) {
	case *ast.SelectStmt:
		return l.selectStmt(n)
	case *ast.SetOprStmt:
		return l.setOp(n)
	}
	return nil, unsupportedStatement(l.scope)
}

// unsupportedStatement names a statement kind wsql does not run by its
// leading words: "INSERT statements", "CREATE VIEW statements".
func unsupportedStatement(toks []token) *Error {
	words := []string{strings.ToUpper(toks[0].text)}
	switch words[0] {
	case "CREATE", "DROP", "ALTER":
		for _, t := range toks[1:] {
			w := strings.ToUpper(t.text)
			if t.kind != tokIdent || (w != "OR" && w != "REPLACE" && w != "TEMPORARY" && w != "SYSTEM") {
				if t.kind == tokIdent {
					words = append(words, w)
				}
				break
			}
		}
	}
	return Errorf(ErrUnsupported, toks[0].pos, "%s statements are not supported yet", strings.Join(words, " "))
}

func (l *lifter) selectStmt(n *ast.SelectStmt) (*Select, *Error) {
	switch {
	case n.Kind != ast.SelectStmtKindSelect:
		return nil, unsupportedStatement(l.scope)
	case n.LockInfo != nil && n.LockInfo.LockType != ast.SelectLockNone:
		return nil, l.unsupported(l.findWord("FOR", "LOCK"), "locking reads are not supported")
	case n.SelectIntoOpt != nil:
		return nil, l.unsupported(l.findWord("INTO"), "SELECT INTO is not supported")
	case n.GroupBy != nil && n.GroupBy.Rollup:
		return nil, l.unsupported(l.findWord("WITH"), "WITH ROLLUP is not supported yet")
	}
	outer := l.windows
	l.windows = n.WindowSpecs
	defer func() { l.windows = outer }()
	at := l.start() // WITH, when the query starts with it
	var with []CTE
	if n.With != nil {
		ctes, rest, err := l.with(n.With)
		if err != nil {
			return nil, err
		}
		with, l.scope = ctes, rest
	}
	s := &Select{At: at, With: with}
	if n.Distinct {
		s.Distinct = l.findWord("DISTINCT")
	}
	if n.From != nil {
		from, err := l.from(n.From.TableRefs)
		if err != nil {
			return nil, err
		}
		s.From = from
	}
	for _, f := range n.Fields.Fields {
		item := SelectItem{At: l.pos(f.Offset), Alias: f.AsName.O}
		if f.WildCard != nil {
			item.Star, item.Table = true, f.WildCard.Table.O
		} else {
			e, err := l.expr(f.Expr)
			if err != nil {
				return nil, err
			}
			item.Expr = e
		}
		s.Items = append(s.Items, item)
	}
	var err *Error
	if n.Where != nil {
		if s.Where, err = l.expr(n.Where); err != nil {
			return nil, err
		}
	}
	if n.GroupBy != nil {
		if err := l.groupBy(n.GroupBy.Items, s); err != nil { // grouping_sets.go
			return nil, err
		}
	}
	if n.Having != nil {
		if s.Having, err = l.expr(n.Having.Expr); err != nil {
			return nil, err
		}
	}
	if n.OrderBy != nil {
		if s.OrderBy, err = l.orderBy(n.OrderBy); err != nil {
			return nil, err
		}
	}
	if n.Limit != nil {
		if s.Limit, err = l.limit(n.Limit); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// from lifts the FROM clause: one table, window TVF, VALUES or subquery,
// or joins of them (join.go).
func (l *lifter) from(j *ast.Join) (TableRef, *Error) {
	items, ops := l.fromParts(l.findWord("FROM"))
	w := &joinWalk{l: l, items: items, ops: ops}
	ref, err := w.ref(j)
	if err == nil && ref.Lateral != nil {
		return TableRef{}, Errorf(ErrUnsupported, ref.Lateral.At, "%s follows the table whose rows it expands, as in FROM t CROSS JOIN %s", ref.Lateral.what(), ref.Lateral.example())
	}
	return ref, err
}

// tableSource lifts one table reference of FROM, whose first token is
// l.scope[next] (-1 if not found).
func (l *lifter) tableSource(ts *ast.TableSource, next int) (TableRef, *Error) {
	at := l.findWord("FROM")
	if next >= 0 {
		at = l.scope[next].pos
	}
	if ts.Lateral {
		return TableRef{}, l.unsupported(at, "LATERAL is not supported")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return l.subquery(ts, next)
	}
	if k, ok := strings.CutPrefix(tn.Name.L, internalPrefix+"tvf_"); ok && tn.Schema.O == "" {
		tvf := l.rw.tvfs[l.index(k, len(l.rw.tvfs))]
		return TableRef{Name: tvf.Table, Alias: ts.AsName.O, Window: tvf}, nil
	}
	if k, ok := strings.CutPrefix(tn.Name.L, internalPrefix+"lateral_"); ok && tn.Schema.O == "" {
		lat := l.rw.laterals[l.index(k, len(l.rw.laterals))]
		return TableRef{Alias: lat.Alias, Lateral: lat, At: at}, nil
	}
	if k, ok := strings.CutPrefix(tn.Name.L, internalPrefix+"values_"); ok && tn.Schema.O == "" {
		v := l.rw.values[l.index(k, len(l.rw.values))]
		return TableRef{Alias: v.Alias, Values: v, At: at}, nil
	}
	switch {
	case tn.Schema.O != "":
		return TableRef{}, l.unsupported(at, "qualified table names are not supported yet")
	case len(tn.IndexHints) > 0 || len(tn.PartitionNames) > 0 || tn.TableSample != nil || tn.AsOf != nil:
		return TableRef{}, l.unsupported(at, "this form of table reference is not supported")
	}
	ref := TableRef{Name: Ident{Name: tn.Name.O, At: at}, Alias: ts.AsName.O}
	if next >= 0 {
		ref.Hint = l.rw.src.tableHint(l.scope[next].off)
		ref.SystemTime = l.rw.systemTimes[l.scope[next].off]
	}
	return ref, nil
}

// groupItem lifts one GROUP BY item, the only place a window call may be.
func (l *lifter) groupItem(e ast.ExprNode) (Expr, *Error) {
	for {
		p, ok := e.(*ast.ParenthesesExpr)
		if !ok {
			break
		}
		e = p.Expr
	}
	if f, ok := e.(*ast.FuncCallExpr); ok {
		if w, ok := windowFuncs[internalName(f.FnName.L)]; ok && w.Prop == 0 {
			args, err := l.exprs(f.Args)
			if err != nil {
				return nil, err
			}
			call := &WindowCall{At: l.exprPos(f), Kind: w.Kind, Args: args}
			if w.Kind == CountWindow {
				if err := checkCountWindow(call); err != nil {
					return nil, err
				}
			}
			return call, nil
		}
	}
	return l.expr(e)
}

// internalName returns the upper-case Flink name of a placeholder function
// name, or "" for other names.
func internalName(lower string) string {
	if !strings.HasPrefix(lower, internalPrefix) {
		return ""
	}
	return strings.ToUpper(strings.TrimPrefix(lower, internalPrefix))
}

func (l *lifter) exprs(in []ast.ExprNode) ([]Expr, *Error) {
	out := make([]Expr, 0, len(in))
	for _, a := range in {
		e, err := l.expr(a)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

var binaryOps = map[opcode.Op]string{
	opcode.Plus: "+", opcode.Minus: "-", opcode.Mul: "*", opcode.Div: "/", opcode.Mod: "%",
	opcode.EQ: "=", opcode.NE: "<>", opcode.LT: "<", opcode.LE: "<=", opcode.GT: ">", opcode.GE: ">=",
	opcode.LogicAnd: "AND", opcode.LogicOr: "OR",
}

// unsupportedExprs names TiDB expression nodes wsql's AST has no node for.
var unsupportedExprs = map[string]string{
	"*ast.PatternRegexpExpr":   "REGEXP is not supported",
	"*ast.CompareSubqueryExpr": "subqueries are not supported yet",
	"*ast.VariableExpr":        "variables are not supported",
	"*ast.DefaultExpr":         "DEFAULT is not supported",
	"*ast.MatchAgainst":        "MATCH AGAINST is not supported",
	"*ast.ValuesExpr":          "VALUES() is not supported",
	"*ast.PositionExpr":        "positions are not supported",
	"*ast.FuncCastExpr":        "CONVERT is not supported; use CAST",
}

func (l *lifter) expr(e ast.ExprNode) (Expr, *Error) {
	at := l.exprPos(e)
	if err := l.enter(at); err != nil {
		return nil, err
	}
	defer l.leave()
	switch e := e.(type) {
	case *ast.ParenthesesExpr:
		return l.expr(e.Expr)
	case *ast.ColumnNameExpr:
		if e.Name.Schema.O != "" {
			return nil, l.unsupported(at, "qualified table names are not supported yet")
		}
		c := &ColumnRef{At: at, Table: e.Name.Table.O, Name: e.Name.Name.O}
		if i := l.tokenAt(e.OriginTextPosition()); c.Table != "" && i >= 0 && i+2 < len(l.rw.toks) {
			c.NameAt = l.rw.toks[i+2].pos
		}
		return c, nil
	case ast.ParamMarkerExpr: // also a ValueExpr
		return nil, l.unsupported(at, "parameters (?) are not supported")
	case ast.ValueExpr:
		return l.literal(e, at)
	case *ast.UnaryOperationExpr:
		op := map[opcode.Op]string{opcode.Minus: "-", opcode.Plus: "+", opcode.Not: "NOT", opcode.Not2: "NOT"}[e.Op]
		if op == "" {
			return nil, l.unsupported(at, "operator %s is not supported", e.Op)
		}
		x, err := l.expr(e.V)
		if err != nil {
			return nil, err
		}
		return &Unary{At: at, Op: op, X: x}, nil
	case *ast.BinaryOperationExpr:
		if x, ok, err := l.isJSONCall(e, at); ok {
			return x, err
		}
		op, ok := binaryOps[e.Op]
		if e.Op == opcode.NullEQ {
			return l.distinctFrom(e, at)
		}
		if !ok {
			name := map[opcode.Op]string{opcode.IntDiv: "DIV", opcode.LogicXor: "XOR", opcode.NullEQ: "<=>",
				opcode.LeftShift: "<<", opcode.RightShift: ">>"}[e.Op]
			if name == "" {
				name = strings.ToUpper(e.Op.String())
			}
			return nil, l.unsupported(at, "operator %s is not supported", name)
		}
		x, err := l.expr(e.L)
		if err != nil {
			return nil, err
		}
		y, err := l.expr(e.R)
		if err != nil {
			return nil, err
		}
		if e.Op == opcode.Mod && l.calls(e, "MOD", e.L) {
			// TiDB reads MOD(a, b) as a % b.
			return &FuncCall{At: at, Name: "MOD", Args: []Expr{x, y}}, nil
		}
		return &Binary{At: at, Op: op, L: x, R: y}, nil
	case *ast.IsNullExpr:
		x, err := l.expr(e.Expr)
		if err != nil {
			return nil, err
		}
		return &IsNull{At: at, X: x, Not: e.Not}, nil
	case *ast.FuncCallExpr:
		return l.funcCall(e, at)
	case *ast.AggregateFuncExpr:
		return l.aggregate(e, at)
	case *ast.WindowFuncExpr:
		return l.over(e, at)
	case *ast.PatternInExpr:
		return l.in(e, at)
	case *ast.ExistsSubqueryExpr:
		return l.exists(e, at)
	case *ast.SubqueryExpr:
		return l.scalarSubquery(e, at)
	case *ast.BetweenExpr:
		return l.between(e, at)
	case *ast.PatternLikeOrIlikeExpr:
		return l.like(e, at)
	case *ast.CaseExpr:
		return l.caseExpr(e, at)
	case *ast.IsTruthExpr:
		return l.isTruth(e, at)
	case *ast.RowExpr: // (a, b): Flink's implicit row constructor
		args, err := l.exprs(e.Values)
		if err != nil {
			return nil, err
		}
		return &FuncCall{At: at, Name: "ROW", Args: args}, nil
	}
	if msg, ok := unsupportedExprs[fmt.Sprintf("%T", e)]; ok {
		return nil, l.unsupported(at, "%s", msg)
	}
	return nil, l.unsupported(at, "this expression is not supported yet")
}

// literal reads a constant from the user's token: TiDB folds TRUE to 1 and
// normalises numbers, but wsql keeps them as written.
func (l *lifter) literal(e ast.ValueExpr, at Pos) (Expr, *Error) {
	i := l.tokenAt(e.OriginTextPosition())
	if i < 0 {
		return nil, l.unsupported(at, "this literal is not supported")
	}
	t := l.rw.toks[i]
	switch {
	case t.kind == tokString && i+1 < len(l.rw.toks) && l.rw.toks[i+1].kind == tokString:
		// MySQL joins 'a' 'b' into one string; Flink reads it differently.
		return nil, l.unsupported(l.rw.toks[i+1].pos, "adjacent string literals are not supported; join them with ||")
	case t.kind == tokString:
		return &Literal{At: at, Kind: LitString, Text: t.value()}, nil
	case isBinaryLiteral(l.rw.toks, i):
		return binaryLiteral(l.rw.toks[i+1], at)
	case t.kind == tokNumber && strings.ContainsAny(t.text, "eE"):
		return &Literal{At: at, Kind: LitFloat, Text: t.text}, nil
	case t.kind == tokNumber && strings.Contains(t.text, "."):
		return &Literal{At: at, Kind: LitDecimal, Text: t.text}, nil
	case t.kind == tokNumber:
		return &Literal{At: at, Kind: LitInt, Text: t.text}, nil
	case t.is("NULL"):
		return &Literal{At: at, Kind: LitNull, Text: "NULL"}, nil
	case t.is("TRUE"), t.is("FALSE"):
		return &Literal{At: at, Kind: LitBool, Text: strings.ToUpper(t.text)}, nil
	}
	return nil, l.unsupported(at, "literal %s is not supported", t.text)
}

func (l *lifter) funcCall(e *ast.FuncCallExpr, at Pos) (Expr, *Error) {
	name := internalName(e.FnName.L)
	switch {
	case name == "INTERVAL":
		return l.rw.intervals[l.sideIndex(e, len(e.Args)-1, len(l.rw.intervals))], nil
	case name == "CAST" || name == "TRY_CAST":
		if len(e.Args) != 2 {
			// CAST(a, b AS INT) reaches TiDB as a call of three.
			return nil, Errorf(ErrSyntax, at, "%s takes one expression before AS", name)
		}
		x, err := l.expr(e.Args[0])
		if err != nil {
			return nil, err
		}
		return &Cast{At: at, X: x, Type: l.rw.casts[l.sideIndex(e, 1, len(l.rw.casts))], Try: name == "TRY_CAST"}, nil
	case unitCalls[name]:
		return l.unitCall(e, name, at)
	case name == "EXTRACT":
		return l.extract(e, at)
	case name == "FIELD" || name == "ITEM" || name == "ARRAY" || name == "MAP":
		x, _, err := l.valueAccessCall(e, name, at)
		return x, err
	case name == "FILTER":
		return l.filter(e, at)
	case name == "IGNORENULLS":
		return l.ignoreNulls(e, at)
	case name == "DISTINCT":
		return l.distinct(e, at)
	case jsonform.Forms[name]:
		return l.jsonCall(e, name, at)
	case plainAggregates[name] || renamedCalls[name] || overOnlyFuncs[name] || name == "OVERLAPS":
		args, err := l.exprs(e.Args)
		if err != nil {
			return nil, err
		}
		if name == "OVERLAPS" {
			args = overlapsArgs(args)
		}
		return &FuncCall{At: at, Name: name, Args: args}, nil
	case name != "":
		w := windowFuncs[name]
		if w.Kind == CountWindow {
			return nil, countWindowMisuse(w.Prop, at)
		}
		args, err := l.exprs(e.Args)
		if err != nil {
			return nil, err
		}
		if w.Prop == 0 {
			return nil, Errorf(ErrInvalid, at, "%s can only be used as an item of GROUP BY; use %s_START or %s_END to select the window bounds", name, name, name)
		}
		return &WindowAux{At: at, Kind: w.Kind, Prop: w.Prop, Args: args}, nil
	}
	switch e.FnName.L {
	case ast.Trim:
		return l.trim(e, at)
	case ast.DateLiteral, ast.TimeLiteral, ast.TimestampLiteral:
		// DATE '2024-01-01' and the like: a string cast to the type. TiDB
		// gives the string no offset; it is the token after the type word.
		i := l.tokenAt(e.OriginTextPosition())
		if i < 0 || i+1 >= len(l.rw.toks) || l.rw.toks[i+1].kind != tokString {
			return nil, l.unsupported(at, "this literal is not supported")
		}
		str := l.rw.toks[i+1]
		x := &Literal{At: str.pos, Kind: LitString, Text: str.value()}
		tn := map[string]string{ast.DateLiteral: "DATE", ast.TimeLiteral: "TIME", ast.TimestampLiteral: "TIMESTAMP"}[e.FnName.L]
		return &Cast{At: at, X: x, Type: TypeName{Name: tn, Precision: -1, Scale: -1, At: at}, Literal: true}, nil
	}
	switch i := l.tokenAt(e.OriginTextPosition()); {
	case e.Schema.O != "":
		return nil, l.unsupported(at, "qualified function names are not supported yet")
	case i >= 0 && l.rw.toks[i].kind == tokQuotedIdent && tidbReserved[strings.ToUpper(e.FnName.O)]:
		// Format could not print the call back: TiDB reads a reserved
		// word before "(" as itself, not as a name.
		return nil, l.unsupported(at, "a function cannot be named %s, a reserved word", e.FnName.O)
	}
	for _, a := range e.Args {
		switch a.(type) {
		case *ast.TimeUnitExpr, *ast.TrimDirectionExpr, *ast.GetFormatSelectorExpr:
			// MySQL's keyword arguments (EXTRACT(HOUR FROM ts)) carry no
			// position of their own; blame the call.
			return nil, l.unsupported(at, "this form of %s is not supported yet", strings.ToUpper(e.FnName.O))
		}
	}
	args, err := l.exprs(e.Args)
	if err != nil {
		return nil, err
	}
	if e.FnName.L == ast.Concat && len(args) == 2 && !l.calls(e, "CONCAT", e.Args[0]) {
		return &Binary{At: at, Op: "||", L: args[0], R: args[1]}, nil
	}
	return &FuncCall{At: at, Name: strings.ToUpper(e.FnName.O), Args: args}, nil
}

// calls reports whether the user wrote e as a call of fn, not as the
// operator TiDB reads the same way (a || b is CONCAT(a, b)): fn starts e,
// and not as the start of e's first operand, as in CONCAT(a, b) || c.
func (l *lifter) calls(e ast.ExprNode, fn string, first ast.ExprNode) bool {
	i := l.tokenAt(e.OriginTextPosition())
	return i >= 0 && i+1 < len(l.rw.toks) && l.rw.toks[i].is(fn) && l.rw.toks[i+1].isOp("(") &&
		first.OriginTextPosition() != e.OriginTextPosition()
}

// sideIndex reads the side-table index a placeholder call carries in its
// argument arg. The rewriter wrote it, so a bad one is a bug; it is
// reported, not panicked.
func (l *lifter) sideIndex(e *ast.FuncCallExpr, arg, n int) int {
	if arg >= 0 && arg < len(e.Args) {
		if v, ok := e.Args[arg].(ast.ValueExpr); ok {
			var k int64 = -1
			switch x := v.GetValue().(type) {
			case int64:
				k = x
			case uint64:
				k = int64(min(x, uint64(n)))
			}
			if k >= 0 && k < int64(n) {
				return int(k)
			}
		}
	}
	panic(bug("bad placeholder call " + e.FnName.O))
}

// index reads the side-table index in a placeholder name.
func (l *lifter) index(s string, n int) int {
	k, err := strconv.Atoi(s)
	if err != nil || k < 0 || k >= n {
		panic(bug("bad placeholder index " + s))
	}
	return k
}

func (l *lifter) aggregate(e *ast.AggregateFuncExpr, at Pos) (Expr, *Error) {
	if e.Order != nil {
		return nil, l.unsupported(at, "ORDER BY in %s is not supported", strings.ToUpper(e.F))
	}
	f := &FuncCall{At: at, Name: strings.ToUpper(e.F), Distinct: e.Distinct}
	i := l.tokenAt(e.OriginTextPosition())
	// TiDB names STDDEV and VARIANCE by MySQL's meaning (STDDEV_POP,
	// VAR_POP); Flink's are the sample forms, so the name is the user's.
	if i >= 0 && l.rw.toks[i].kind == tokIdent {
		f.Name = strings.ToUpper(l.rw.toks[i].text)
	}
	// TiDB turns COUNT(*) into COUNT(1); the user's tokens tell them apart.
	if i >= 0 && i+2 < len(l.rw.toks) &&
		l.rw.toks[i+1].isOp("(") && l.rw.toks[i+2].isOp("*") {
		f.Star = true
		return f, nil
	}
	args, err := l.exprs(e.Args)
	if err != nil {
		return nil, err
	}
	f.Args = args
	return f, nil
}
