package sqlfmt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/interval"
	"github.com/wsql/wsql/sql/jsonform"
)

// Statement prints statements back as canonical Flink SQL: upper-case
// keywords, back-quotes only where a name needs them (sql.QuoteName),
// strings with doubled quotes, intervals in their smallest exact unit, and
// parentheses wherever precedence needs them in Flink or in TiDB (a few
// more than either needs, never fewer). sql.Parse(Statement(st)) gives st back,
// except for positions and the as-written texts (sql.IntervalLiteral.Text,
// sql.CreateView.QueryText). CREATE TABLE prints one column per line; the
// other statements print on one line. There is no trailing ';'.

// Statement returns st as Flink SQL.
func Statement(st sql.Statement) string {
	var b strings.Builder
	formatStmt(&b, st)
	return b.String()
}

// Expr returns e as Flink SQL.
func Expr(e sql.Expr) string { return formatExpr(e) }

func formatStmt(b *strings.Builder, st sql.Statement) {
	switch s := st.(type) {
	case *sql.CreateTable:
		formatCreateTable(b, s)
	case *sql.Select:
		formatSelect(b, s)
	case *sql.CreateView:
		b.WriteString("CREATE ")
		if s.Temporary {
			b.WriteString("TEMPORARY ")
		}
		b.WriteString("VIEW ")
		if s.IfNotExists {
			b.WriteString("IF NOT EXISTS ")
		}
		b.WriteString(sql.QuoteName(s.Name.Name))
		formatNameList(b, s.Columns)
		if s.Comment != "" {
			b.WriteString(" COMMENT " + quoteString(s.Comment))
		}
		b.WriteString(" AS ")
		formatSelect(b, s.Query)
	case *sql.Drop:
		b.WriteString("DROP ")
		if s.Temporary {
			b.WriteString("TEMPORARY ")
		}
		if s.View {
			b.WriteString("VIEW ")
		} else {
			b.WriteString("TABLE ")
		}
		if s.IfExists {
			b.WriteString("IF EXISTS ")
		}
		b.WriteString(sql.QuoteName(s.Name.Name))
	case *sql.Set:
		b.WriteString("SET")
		if s.Key != "" {
			b.WriteString(" " + quoteString(s.Key) + " = " + quoteString(s.Value))
		}
	case *sql.Reset:
		b.WriteString("RESET")
		if s.Key != "" {
			b.WriteString(" " + quoteString(s.Key))
		}
	case *sql.Show:
		b.WriteString("SHOW " + s.What)
		if s.Name.Name != "" {
			b.WriteString(map[bool]string{true: " FROM ", false: " "}[s.What == "COLUMNS"] + sql.QuoteName(s.Name.Name))
		}
		if s.Like != "" {
			b.WriteString(map[bool]string{true: " NOT ", false: " "}[s.NotLike] + s.Like + " " + quoteString(s.Pattern))
		}
	case *sql.Use:
		b.WriteString("USE " + map[bool]string{true: "CATALOG ", false: ""}[s.Catalog] + sql.QuoteName(s.Name.Name))
	case *sql.Describe:
		b.WriteString("DESCRIBE " + sql.QuoteName(s.Name.Name))
	case *sql.Explain:
		b.WriteString("EXPLAIN ")
		formatStmt(b, s.Stmt)
	case *sql.Insert:
		if s.Overwrite {
			b.WriteString("INSERT OVERWRITE ")
		} else {
			b.WriteString("INSERT INTO ")
		}
		b.WriteString(sql.QuoteName(s.Table.Name))
		formatHint(b, s.Hint)
		formatNameList(b, s.Columns)
		b.WriteByte(' ')
		formatSelect(b, s.Query)
	case *sql.CreateFunction, *sql.DropFunction:
		formatFunctionDDL(b, s)
	case *sql.StatementSet:
		b.WriteString("EXECUTE STATEMENT SET BEGIN ")
		for _, ins := range s.Inserts {
			formatStmt(b, ins)
			b.WriteString("; ")
		}
		b.WriteString("END")
	case *sql.BeginStatementSet:
		b.WriteString("BEGIN STATEMENT SET")
	case *sql.EndStatementSet:
		b.WriteString("END")
	default:
		fmt.Fprintf(b, "/* unknown statement %T */", st)
	}
}

func formatCreateTable(b *strings.Builder, s *sql.CreateTable) {
	b.WriteString("CREATE TABLE ")
	if s.IfNotExists {
		b.WriteString("IF NOT EXISTS ")
	}
	b.WriteString(sql.QuoteName(s.Name.Name))
	if len(s.Columns) > 0 {
		b.WriteString(" (")
	}
	var elems []string
	for _, c := range s.Columns {
		e := sql.QuoteName(c.Name.Name)
		if c.Computed != nil {
			e += " AS " + formatExpr(c.Computed)
		} else {
			e += " " + formatType(c.Type)
			if c.NotNull {
				e += " NOT NULL"
			}
			if c.Metadata {
				e += " METADATA"
				if c.MetadataKey != "" {
					e += " FROM " + quoteString(c.MetadataKey)
				}
				if c.Virtual {
					e += " VIRTUAL"
				}
			}
		}
		if c.Comment != "" {
			e += " COMMENT " + quoteString(c.Comment)
		}
		elems = append(elems, e)
	}
	if w := s.Watermark; w != nil {
		elems = append(elems, "WATERMARK FOR "+sql.QuoteName(w.Column.Name)+" AS "+formatExpr(w.Expr))
	}
	if k := s.PrimaryKey; k != nil {
		var c strings.Builder
		if k.Name != "" {
			c.WriteString("CONSTRAINT " + sql.QuoteName(k.Name) + " ")
		}
		c.WriteString("PRIMARY KEY")
		formatNameList(&c, k.Columns)
		elems = append(elems, c.String()+" NOT ENFORCED")
	}
	if len(elems) > 0 {
		b.WriteString("\n  " + strings.Join(elems, ",\n  ") + "\n)")
	}
	if s.Comment != "" {
		b.WriteString(" COMMENT " + quoteString(s.Comment))
	}
	if len(s.Options) > 0 {
		b.WriteString(" WITH (")
		for i, o := range s.Options {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n  " + quoteString(o.Key) + " = " + quoteString(o.Value))
		}
		b.WriteString("\n)")
	}
	if l := s.Like; l != nil {
		b.WriteString("\nLIKE " + sql.QuoteName(l.Table.Name))
		for i, o := range l.Options {
			sep := ", "
			if i == 0 {
				sep = " ("
			}
			b.WriteString(sep + o.Mode + " " + o.Feature)
		}
		if len(l.Options) > 0 {
			b.WriteString(")")
		}
	}
	if s.Query != nil {
		b.WriteString("\nAS ")
		formatSelect(b, s.Query)
	}
}

func formatSelect(b *strings.Builder, s *sql.Select) {
	for i, c := range s.With {
		if i == 0 {
			b.WriteString("WITH ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(sql.QuoteName(c.Name.Name))
		formatNameList(b, c.Columns)
		b.WriteString(" AS (")
		formatSelect(b, c.Query)
		b.WriteString(")")
	}
	if len(s.With) > 0 {
		b.WriteByte(' ')
	}
	if s.Set != nil {
		formatSetOp(b, s.Set)
		return
	}
	b.WriteString("SELECT ")
	if s.Distinct.IsValid() {
		b.WriteString("DISTINCT ")
	}
	for i, it := range s.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		if it.Star {
			if it.Table != "" {
				b.WriteString(sql.QuoteName(it.Table) + ".")
			}
			b.WriteByte('*')
		} else {
			b.WriteString(formatExpr(it.Expr))
		}
		if it.Alias != "" {
			b.WriteString(" AS " + sql.QuoteName(it.Alias))
		}
	}
	if f := s.From; f.Values != nil || f.Name.Name != "" || f.Subquery != nil || f.Join != nil || f.Lateral != nil {
		b.WriteString(" FROM ")
		formatTableRef(b, f)
	}
	if s.Where != nil {
		b.WriteString(" WHERE " + formatExpr(s.Where))
	}
	if len(s.GroupBy) > 0 || s.GroupingSets != nil {
		b.WriteString(" GROUP BY ")
		for i, e := range s.GroupBy {
			if i > 0 {
				b.WriteString(", ")
			}
			// TiDB reads a bare number (or TRUE) there as a column
			// position; in parentheses it stays the constant.
			if _, ok := e.(*sql.Literal); ok {
				b.WriteString("(" + formatExpr(e) + ")")
			} else {
				b.WriteString(formatExpr(e))
			}
		}
		if s.GroupingSets != nil {
			if len(s.GroupBy) > 0 {
				b.WriteString(", ")
			}
			b.WriteString(groupingSets(s.GroupingSets))
		}
	}
	if s.Having != nil {
		b.WriteString(" HAVING " + formatExpr(s.Having))
	}
	for i, o := range s.OrderBy {
		if i == 0 {
			b.WriteString(" ORDER BY ")
		} else {
			b.WriteString(", ")
		}
		if o.Expr == nil {
			b.WriteString(strconv.Itoa(o.Position))
		} else {
			b.WriteString(formatExpr(o.Expr))
		}
		if o.Desc {
			b.WriteString(" DESC")
		}
	}
	if s.Limit != nil {
		b.WriteString(" LIMIT " + strconv.FormatInt(s.Limit.Count, 10))
	}
}

// formatSetOp prints a set operation; a query that is itself one is
// parenthesized, which keeps the grouping of mixed operators.
func formatSetOp(b *strings.Builder, s *sql.SetOp) {
	for i, q := range s.Queries {
		if i > 0 {
			b.WriteString(" " + s.Kind.String() + " ")
		}
		if q.Set != nil && i > 0 {
			b.WriteByte('(')
			formatSelect(b, q)
			b.WriteByte(')')
			continue
		}
		formatSelect(b, q)
	}
}

// formatHint prints a table hint, or nothing for none.
func formatHint(b *strings.Builder, h *sql.TableHint) {
	if h == nil {
		return
	}
	b.WriteString(" /*+ OPTIONS(")
	for i, o := range h.Options {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteString(o.Key) + " = " + quoteString(o.Value))
	}
	b.WriteString(") */")
}

// formatTVF prints a window TVF with positional arguments.
func formatTVF(b *strings.Builder, w *sql.WindowTVF) {
	b.WriteString("TABLE(" + w.Kind.String() + "(TABLE " + sql.QuoteName(w.Table.Name))
	switch len(w.PartitionBy) {
	case 0:
	case 1:
		b.WriteString(" PARTITION BY " + sql.QuoteName(w.PartitionBy[0].Name))
	default:
		b.WriteString(" PARTITION BY")
		formatNameList(b, w.PartitionBy)
	}
	b.WriteString(", DESCRIPTOR(" + sql.QuoteName(w.TimeCol.Name) + ")")
	for _, a := range w.Args {
		b.WriteString(", " + formatExpr(a))
	}
	b.WriteString("))")
}

// formatNameList prints " (a, b)", or nothing for no names.
func formatNameList(b *strings.Builder, names []sql.Ident) {
	if len(names) == 0 {
		return
	}
	b.WriteString(" (")
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sql.QuoteName(n.Name))
	}
	b.WriteByte(')')
}

func formatType(t sql.TypeName) string {
	switch {
	case t.Scale >= 0:
		return fmt.Sprintf("%s(%d, %d)", t.Name, t.Precision, t.Scale)
	case t.Precision >= 0:
		return fmt.Sprintf("%s(%d)", t.Name, t.Precision)
	}
	return t.Name
}

// quoteString writes s as a SQL string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func formatExprs(es []sql.Expr) string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = formatExpr(e)
	}
	return strings.Join(out, ", ")
}

// Precedence levels, loosest first. || gets its own level: Flink binds it
// like *, TiDB tighter than *, so it is always put in parentheses next to
// another operator.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCompare // = <> < <= > >= IS [NOT] NULL, IN, BETWEEN, LIKE; not associative
	precAdd
	precMul
	precConcat
	precUnary
	precAtom
)

func precOf(e sql.Expr) int {
	switch e := e.(type) {
	case *sql.Binary:
		switch e.Op {
		case "OR":
			return precOr
		case "AND":
			return precAnd
		case "+", "-":
			return precAdd
		case "*", "/", "%":
			return precMul
		case "||":
			return precConcat
		}
		return precCompare
	case *sql.IsNull, *sql.In, *sql.Between, *sql.Like, *sql.IsTruth:
		return precCompare
	case *sql.Unary:
		if e.Op == "NOT" {
			return precNot
		}
		return precUnary
	}
	return precAtom
}

// operand prints a child of an operator of level parent, in parentheses
// when reading it back could build a different tree.
func operand(e sql.Expr, parent int, right bool) string {
	s := formatExpr(e)
	p := precOf(e)
	paren := false
	switch {
	case p == precAtom || p == precUnary:
	case p < parent:
		paren = true
	case p == parent:
		// Left-associative: an equal child on the right keeps its parens,
		// and comparisons and || never chain without them.
		paren = right || p == precCompare || p == precConcat
	case p == precConcat || parent == precConcat:
		paren = parent > precAnd
	}
	if paren {
		return "(" + s + ")"
	}
	return s
}

// niladic are the functions SQL calls without parentheses. POSITION and
// SUBSTRING print in the standard's keyword form, which both Flink and
// TiDB read.
var niladic = map[string]bool{"CURRENT_TIMESTAMP": true, "CURRENT_DATE": true, "CURRENT_TIME": true, "LOCALTIME": true, "LOCALTIMESTAMP": true, "CURRENT_USER": true}

func formatExpr(e sql.Expr) string {
	switch e := e.(type) {
	case nil:
		return "NULL"
	case *sql.ColumnRef:
		if e.Table != "" {
			return sql.QuoteName(e.Table) + "." + sql.QuoteName(e.Name)
		}
		return sql.QuoteName(e.Name)
	case *sql.Literal:
		switch e.Kind {
		case sql.LitString:
			return quoteString(e.Text)
		case sql.LitBinary:
			return "X'" + e.Text + "'"
		}
		return e.Text
	case *sql.IntervalLiteral:
		if e.YearMonth {
			return interval.FormatMonths(e.Months)
		}
		return interval.Format(e.Millis)
	case *sql.Unary:
		if e.Op == "NOT" {
			x := formatExpr(e.X)
			if p := precOf(e.X); p < precAtom && p != precUnary {
				x = "(" + x + ")"
			}
			return "NOT " + x
		}
		x := formatExpr(e.X)
		// A binary child needs parentheses, and -(-1) must not become the
		// comment --1.
		if precOf(e.X) < precUnary || strings.HasPrefix(x, "-") || strings.HasPrefix(x, "+") {
			x = "(" + x + ")"
		}
		return e.Op + x
	case *sql.Binary:
		p := precOf(e)
		return operand(e.L, p, false) + " " + e.Op + " " + operand(e.R, p, true)
	case *sql.IsNull:
		x := formatExpr(e.X)
		if precOf(e.X) <= precCompare {
			x = "(" + x + ")"
		}
		if e.Not {
			return x + " IS NOT NULL"
		}
		return x + " IS NULL"
	case *sql.IsTruth:
		x := formatExpr(e.X)
		if precOf(e.X) <= precCompare {
			x = "(" + x + ")"
		}
		return x + " IS" + notWord(e.Not) + " " + map[bool]string{true: "TRUE", false: "FALSE"}[e.Value]
	case *sql.Cast:
		if l, ok := e.X.(*sql.Literal); ok && e.Literal {
			return e.Type.Name + " " + quoteString(l.Text)
		}
		if e.Try {
			return "TRY_CAST(" + formatExpr(e.X) + " AS " + formatType(e.Type) + ")"
		}
		return "CAST(" + formatExpr(e.X) + " AS " + formatType(e.Type) + ")"
	case *sql.In:
		return operand(e.X, precCompare, false) + notWord(e.Not) + " IN (" + formatExprs(e.List) + ")"
	case *sql.Subquery:
		var b strings.Builder
		formatSelect(&b, e.Query)
		if e.X == nil {
			if e.Not {
				return "NOT EXISTS (" + b.String() + ")"
			}
			return "EXISTS (" + b.String() + ")"
		}
		return operand(e.X, precCompare, false) + notWord(e.Not) + " IN (" + b.String() + ")"
	case *sql.ScalarSubquery:
		var b strings.Builder
		formatSelect(&b, e.Query)
		return "(" + b.String() + ")"
	case *sql.Between:
		word := " BETWEEN "
		if e.Symmetric {
			word = " BETWEEN SYMMETRIC "
		}
		return operand(e.X, precCompare, false) + notWord(e.Not) + word +
			operand(e.Lo, precCompare, false) + " AND " + operand(e.Hi, precCompare, false)
	case *sql.Like:
		// TiDB reads only a simple expression as the pattern.
		pat := formatExpr(e.Pattern)
		if precOf(e.Pattern) != precAtom {
			pat = "(" + pat + ")"
		}
		word := " LIKE "
		if e.Similar {
			word = " SIMILAR TO "
		}
		s := operand(e.X, precCompare, false) + notWord(e.Not) + word + pat
		if e.Escape != nil {
			s += " ESCAPE " + formatExpr(e.Escape)
		}
		return s
	case *sql.Case:
		return formatCase(e)
	case *sql.Extract:
		return "EXTRACT(" + e.Unit + " FROM " + formatExpr(e.X) + ")"
	case *sql.Trim:
		mode := e.Mode
		if mode == "" {
			mode = "BOTH"
		}
		switch {
		case e.Chars != nil:
			return "TRIM(" + mode + " " + formatExpr(e.Chars) + " FROM " + formatExpr(e.X) + ")"
		case mode != "BOTH":
			return "TRIM(" + mode + " FROM " + formatExpr(e.X) + ")"
		}
		return "TRIM(" + formatExpr(e.X) + ")"
	case *sql.FieldAccess:
		return formatAccessed(e.X) + "." + sql.QuoteName(e.Field.Name)
	case *sql.ItemAccess:
		return formatAccessed(e.X) + "[" + formatExpr(e.Index) + "]"
	case *sql.FuncCall:
		if (e.Name == "ARRAY" || e.Name == "MAP") && e.Filter == nil {
			return e.Name + "[" + formatExprs(e.Args) + "]"
		}
		if e.Filter != nil {
			call := *e
			call.Filter = nil
			return formatExpr(&call) + " FILTER (WHERE " + formatExpr(e.Filter) + ")"
		}
		if e.JSON != nil {
			return formatJSONCall(e)
		}
		if e.IgnoreNulls {
			call := *e
			call.IgnoreNulls = false
			s := formatExpr(&call)
			return s[:len(s)-1] + " IGNORE NULLS)"
		}
		name := e.Name
		if !sql.IsIdentifier(name) || strings.HasPrefix(name, "_") {
			name = "`" + strings.ReplaceAll(name, "`", "``") + "`" // a back-quoted UDF name
		}
		switch {
		case e.Star:
			return name + "(*)"
		case e.Unit != "":
			return formatUnitCall(e)
		case len(e.Args) == 0 && niladic[e.Name]:
			return e.Name
		case e.Distinct:
			return name + "(DISTINCT " + formatExprs(e.Args) + ")"
		case e.Name == "POSITION" && len(e.Args) == 2:
			return "POSITION(" + operand(e.Args[0], precCompare+1, false) + " IN " + formatExpr(e.Args[1]) + ")"
		case e.Name == "SUBSTRING" && len(e.Args) == 2:
			return "SUBSTRING(" + formatExpr(e.Args[0]) + " FROM " + formatExpr(e.Args[1]) + ")"
		case e.Name == "SUBSTRING" && len(e.Args) == 3:
			return "SUBSTRING(" + formatExpr(e.Args[0]) + " FROM " + formatExpr(e.Args[1]) + " FOR " + formatExpr(e.Args[2]) + ")"
		}
		return name + "(" + formatExprs(e.Args) + ")"
	case *sql.WindowCall:
		return e.Kind.String() + "(" + formatExprs(e.Args) + ")"
	case *sql.WindowAux:
		return e.Kind.String() + "_" + e.Prop.String() + "(" + formatExprs(e.Args) + ")"
	case *sql.OverCall:
		return formatOver(e)
	}
	return fmt.Sprintf("/* unknown expression %T */", e)
}

func notWord(not bool) string {
	if not {
		return " NOT"
	}
	return ""
}

func formatCase(e *sql.Case) string {
	var b strings.Builder
	b.WriteString("CASE")
	if e.Operand != nil {
		b.WriteString(" " + formatExpr(e.Operand))
	}
	for _, w := range e.Whens {
		b.WriteString(" WHEN " + formatExprs(append([]sql.Expr{w.Cond}, w.More...)) + " THEN " + formatExpr(w.Result))
	}
	if e.Else != nil {
		b.WriteString(" ELSE " + formatExpr(e.Else))
	}
	b.WriteString(" END")
	return b.String()
}

// formatJSONCall prints a JSON function call with its clauses.
func formatJSONCall(e *sql.FuncCall) string {
	c := e.JSON
	if e.Name == "IS JSON" {
		return operand(e.Args[0], precCompare, false) + " IS" + notWord(c.Not) + " JSON " + c.Type
	}
	args, rest := e.Args, []string(nil)
	var b strings.Builder
	switch e.Name {
	case "JSON_OBJECT", "JSON_OBJECTAGG":
		for i := 0; i+1 < len(args); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("KEY " + formatExpr(args[i]) + " VALUE " + formatExpr(args[i+1]))
		}
	case "JSON_ARRAY", "JSON_ARRAYAGG":
		b.WriteString(formatExprs(args))
	default:
		b.WriteString(formatExprs(args[:min(2, len(args))]))
		for _, d := range args[min(2, len(args)):] {
			rest = append(rest, formatExpr(d))
		}
	}
	returning := ""
	if c.Returning != nil {
		returning = formatType(*c.Returning)
	}
	f := jsonform.Clauses{Wrapper: c.Wrapper, OnEmpty: c.OnEmpty, OnError: c.OnError, OnNull: c.OnNull}
	return e.Name + "(" + b.String() + f.Format(returning, rest) + ")"
}

// formatFunctionDDL prints CREATE FUNCTION and DROP FUNCTION.
func formatFunctionDDL(b *strings.Builder, st sql.Statement) {
	var temporary, system, cond bool
	var name sql.Ident
	switch s := st.(type) {
	case *sql.CreateFunction:
		b.WriteString("CREATE ")
		temporary, system, cond, name = s.Temporary, s.System, s.IfNotExists, s.Name
	case *sql.DropFunction:
		b.WriteString("DROP ")
		temporary, system, cond, name = s.Temporary, s.System, s.IfExists, s.Name
	}
	b.WriteString(map[bool]string{true: "TEMPORARY ", false: ""}[temporary] + map[bool]string{true: "SYSTEM ", false: ""}[system] + "FUNCTION ")
	if cond {
		_, create := st.(*sql.CreateFunction)
		b.WriteString(map[bool]string{true: "IF NOT EXISTS ", false: "IF EXISTS "}[create])
	}
	b.WriteString(sql.QuoteName(name.Name))
	if c, ok := st.(*sql.CreateFunction); ok {
		b.WriteString(" AS " + quoteString(c.Identifier))
	}
}

// formatAccessed prints the value a field or an item is taken from, in
// parentheses unless it is a name, a call or another access.
func formatAccessed(x sql.Expr) string {
	switch x.(type) {
	case *sql.ColumnRef, *sql.FuncCall, *sql.FieldAccess, *sql.ItemAccess:
		return formatExpr(x)
	}
	return "(" + formatExpr(x) + ")"
}

// formatUnitCall prints a call with a time unit in its Flink form.
func formatUnitCall(e *sql.FuncCall) string {
	if e.Name == "TIMESTAMPADD" || e.Name == "TIMESTAMPDIFF" {
		return e.Name + "(" + e.Unit + ", " + formatExprs(e.Args) + ")"
	}
	// an operand ending in an INTERVAL would read TO as its own
	return e.Name + "(" + operand(e.Args[0], precAtom, false) + " TO " + e.Unit + ")"
}

// formatOver prints f(...) OVER (PARTITION BY ... ORDER BY ... frame).
func formatOver(e *sql.OverCall) string {
	var parts []string
	if len(e.PartitionBy) > 0 {
		parts = append(parts, "PARTITION BY "+formatExprs(e.PartitionBy))
	}
	if len(e.OrderBy) > 0 {
		var keys []string
		for _, k := range e.OrderBy {
			key := formatExpr(k.Expr)
			if k.Desc {
				key += " DESC"
			}
			keys = append(keys, key)
		}
		parts = append(parts, "ORDER BY "+strings.Join(keys, ", "))
	}
	if f := e.Frame; f != nil {
		kind := "RANGE"
		if f.Rows {
			kind = "ROWS"
		}
		parts = append(parts, kind+" BETWEEN "+formatBound(f.Start)+" AND "+formatBound(f.End))
	}
	return formatExpr(e.Func) + " OVER (" + strings.Join(parts, " ") + ")"
}

func formatBound(b sql.FrameBound) string {
	dir := " PRECEDING"
	if b.Following {
		dir = " FOLLOWING"
	}
	switch {
	case b.Current:
		return "CURRENT ROW"
	case b.Unbounded:
		return "UNBOUNDED" + dir
	}
	return formatExpr(b.Offset) + dir
}

// groupingSets prints expanded grouping sets: GROUPING SETS ((a, b), ()).
func groupingSets(sets [][]sql.Expr) string {
	var b strings.Builder
	b.WriteString("GROUPING SETS (")
	for i, set := range sets {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, e := range set {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatExpr(e))
		}
		b.WriteByte(')')
	}
	b.WriteByte(')')
	return b.String()
}

// formatTableRef writes one table reference of FROM: a table, window TVF,
// subquery or join, with its alias.
func formatTableRef(b *strings.Builder, f sql.TableRef) {
	if j := f.Join; j != nil {
		formatTableRef(b, j.Left)
		if j.Comma {
			b.WriteString(", ")
		} else {
			b.WriteString(" " + j.Kind.String() + " ")
		}
		// a join on the right keeps its grouping
		if j.Right.Join != nil {
			b.WriteByte('(')
			formatTableRef(b, j.Right)
			b.WriteByte(')')
		} else {
			formatTableRef(b, j.Right)
		}
		if j.On != nil {
			b.WriteString(" ON " + formatExpr(j.On))
		}
		if j.Using != nil {
			b.WriteString(" USING")
			formatNameList(b, j.Using)
		}
		return
	}
	if lat := f.Lateral; lat != nil {
		formatLateral(b, lat)
		return
	}
	if v := f.Values; v != nil {
		b.WriteString("(VALUES ")
		for i, row := range v.Rows {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(" + formatExprs(row) + ")")
		}
		b.WriteString(")")
		if v.Alias != "" {
			b.WriteString(" AS " + sql.QuoteName(v.Alias))
			formatNameList(b, v.Columns)
		}
		return
	}
	if q := f.Subquery; q != nil {
		b.WriteByte('(')
		formatSelect(b, q)
		b.WriteByte(')')
	} else if w := f.Window; w != nil {
		formatTVF(b, w)
	} else {
		b.WriteString(sql.QuoteName(f.Name.Name))
		formatHint(b, f.Hint)
		if f.SystemTime != nil {
			b.WriteString(" FOR SYSTEM_TIME AS OF " + formatExpr(f.SystemTime))
		}
	}
	if f.Alias != "" {
		b.WriteString(" AS " + sql.QuoteName(f.Alias))
	}
}

// formatLateral writes UNNEST(...) or LATERAL TABLE(...) with its alias.
func formatLateral(b *strings.Builder, lat *sql.Lateral) {
	if lat.Function != nil {
		b.WriteString("LATERAL TABLE(" + formatExpr(lat.Function) + ")")
	} else {
		b.WriteString("UNNEST(" + formatExpr(lat.Unnest) + ")")
		if lat.Ordinality {
			b.WriteString(" WITH ORDINALITY")
		}
	}
	if lat.Alias != "" {
		b.WriteString(" AS " + sql.QuoteName(lat.Alias))
		formatNameList(b, lat.Columns)
	}
}
