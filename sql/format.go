package sql

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/sql/interval"
)

// Format prints statements back as canonical Flink SQL: upper-case
// keywords, back-quotes only where a name needs them (keywords.go),
// strings with doubled quotes, intervals in their smallest exact unit, and
// parentheses wherever precedence needs them in Flink or in TiDB (a few
// more than either needs, never fewer). Parse(Format(st)) gives st back,
// except for positions and the as-written texts (IntervalLiteral.Text,
// CreateView.QueryText). CREATE TABLE prints one column per line; the
// other statements print on one line. There is no trailing ';'.

// Format returns st as Flink SQL.
func Format(st Statement) string {
	var b strings.Builder
	formatStmt(&b, st)
	return b.String()
}

// FormatExpr returns e as Flink SQL.
func FormatExpr(e Expr) string { return formatExpr(e) }

func formatStmt(b *strings.Builder, st Statement) {
	switch s := st.(type) {
	case *CreateTable:
		formatCreateTable(b, s)
	case *Select:
		formatSelect(b, s)
	case *CreateView:
		b.WriteString("CREATE ")
		if s.Temporary {
			b.WriteString("TEMPORARY ")
		}
		b.WriteString("VIEW ")
		if s.IfNotExists {
			b.WriteString("IF NOT EXISTS ")
		}
		b.WriteString(quoteName(s.Name.Name))
		formatNameList(b, s.Columns)
		if s.Comment != "" {
			b.WriteString(" COMMENT " + quoteString(s.Comment))
		}
		b.WriteString(" AS ")
		formatSelect(b, s.Query)
	case *Drop:
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
		b.WriteString(quoteName(s.Name.Name))
	case *Set:
		b.WriteString("SET")
		if s.Key != "" {
			b.WriteString(" " + quoteString(s.Key) + " = " + quoteString(s.Value))
		}
	case *Reset:
		b.WriteString("RESET")
		if s.Key != "" {
			b.WriteString(" " + quoteString(s.Key))
		}
	case *Show:
		b.WriteString("SHOW " + s.What)
		if s.Name.Name != "" {
			b.WriteString(map[bool]string{true: " FROM ", false: " "}[s.What == "COLUMNS"] + quoteName(s.Name.Name))
		}
		if s.Like != "" {
			b.WriteString(map[bool]string{true: " NOT ", false: " "}[s.NotLike] + s.Like + " " + quoteString(s.Pattern))
		}
	case *Use:
		b.WriteString("USE " + map[bool]string{true: "CATALOG ", false: ""}[s.Catalog] + quoteName(s.Name.Name))
	case *Describe:
		b.WriteString("DESCRIBE " + quoteName(s.Name.Name))
	case *Explain:
		b.WriteString("EXPLAIN ")
		formatStmt(b, s.Stmt)
	case *Insert:
		if s.Overwrite {
			b.WriteString("INSERT OVERWRITE ")
		} else {
			b.WriteString("INSERT INTO ")
		}
		b.WriteString(quoteName(s.Table.Name))
		formatHint(b, s.Hint)
		formatNameList(b, s.Columns)
		b.WriteByte(' ')
		formatSelect(b, s.Query)
	case *CreateFunction, *DropFunction:
		formatFunctionDDL(b, s)
	default:
		fmt.Fprintf(b, "/* unknown statement %T */", st)
	}
}

func formatCreateTable(b *strings.Builder, s *CreateTable) {
	b.WriteString("CREATE TABLE ")
	if s.IfNotExists {
		b.WriteString("IF NOT EXISTS ")
	}
	b.WriteString(quoteName(s.Name.Name))
	if len(s.Columns) > 0 {
		b.WriteString(" (")
	}
	var elems []string
	for _, c := range s.Columns {
		e := quoteName(c.Name.Name)
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
		elems = append(elems, "WATERMARK FOR "+quoteName(w.Column.Name)+" AS "+formatExpr(w.Expr))
	}
	if k := s.PrimaryKey; k != nil {
		var c strings.Builder
		if k.Name != "" {
			c.WriteString("CONSTRAINT " + quoteName(k.Name) + " ")
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
		b.WriteString("\nLIKE " + quoteName(l.Table.Name))
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

func formatSelect(b *strings.Builder, s *Select) {
	b.WriteString("SELECT ")
	for i, it := range s.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		if it.Star {
			b.WriteByte('*')
		} else {
			b.WriteString(formatExpr(it.Expr))
		}
		if it.Alias != "" {
			b.WriteString(" AS " + quoteName(it.Alias))
		}
	}
	if f := s.From; f.Values != nil {
		b.WriteString(" FROM (VALUES ")
		for i, row := range f.Values.Rows {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(" + formatExprs(row) + ")")
		}
		b.WriteString(")")
		if f.Values.Alias != "" {
			b.WriteString(" AS " + quoteName(f.Values.Alias))
			formatNameList(b, f.Values.Columns)
		}
	} else if f.Name.Name != "" || f.Subquery != nil {
		b.WriteString(" FROM ")
		if q := f.Subquery; q != nil {
			b.WriteByte('(')
			formatSelect(b, q)
			b.WriteByte(')')
		} else if w := f.Window; w != nil {
			formatTVF(b, w)
		} else {
			b.WriteString(quoteName(f.Name.Name))
			formatHint(b, f.Hint)
		}
		if f.Alias != "" {
			b.WriteString(" AS " + quoteName(f.Alias))
		}
	}
	if s.Where != nil {
		b.WriteString(" WHERE " + formatExpr(s.Where))
	}
	if len(s.GroupBy) > 0 {
		b.WriteString(" GROUP BY ")
		for i, e := range s.GroupBy {
			if i > 0 {
				b.WriteString(", ")
			}
			// TiDB reads a bare number (or TRUE) there as a column
			// position; in parentheses it stays the constant.
			if _, ok := e.(*Literal); ok {
				b.WriteString("(" + formatExpr(e) + ")")
			} else {
				b.WriteString(formatExpr(e))
			}
		}
	}
	if s.Having != nil {
		b.WriteString(" HAVING " + formatExpr(s.Having))
	}
}

// formatHint prints a table hint, or nothing for none.
func formatHint(b *strings.Builder, h *TableHint) {
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
func formatTVF(b *strings.Builder, w *WindowTVF) {
	b.WriteString("TABLE(" + w.Kind.String() + "(TABLE " + quoteName(w.Table.Name))
	switch len(w.PartitionBy) {
	case 0:
	case 1:
		b.WriteString(" PARTITION BY " + quoteName(w.PartitionBy[0].Name))
	default:
		b.WriteString(" PARTITION BY")
		formatNameList(b, w.PartitionBy)
	}
	b.WriteString(", DESCRIPTOR(" + quoteName(w.TimeCol.Name) + ")")
	for _, a := range w.Args {
		b.WriteString(", " + formatExpr(a))
	}
	b.WriteString("))")
}

// formatNameList prints " (a, b)", or nothing for no names.
func formatNameList(b *strings.Builder, names []Ident) {
	if len(names) == 0 {
		return
	}
	b.WriteString(" (")
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteName(n.Name))
	}
	b.WriteByte(')')
}

func formatType(t TypeName) string {
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

func formatExprs(es []Expr) string {
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

func precOf(e Expr) int {
	switch e := e.(type) {
	case *Binary:
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
	case *IsNull, *In, *Between, *Like:
		return precCompare
	case *Unary:
		if e.Op == "NOT" {
			return precNot
		}
		return precUnary
	}
	return precAtom
}

// operand prints a child of an operator of level parent, in parentheses
// when reading it back could build a different tree.
func operand(e Expr, parent int, right bool) string {
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
var niladic = wordSet("CURRENT_TIMESTAMP CURRENT_DATE CURRENT_TIME LOCALTIME LOCALTIMESTAMP CURRENT_USER")

func formatExpr(e Expr) string {
	switch e := e.(type) {
	case nil:
		return "NULL"
	case *ColumnRef:
		if e.Table != "" {
			return quoteName(e.Table) + "." + quoteName(e.Name)
		}
		return quoteName(e.Name)
	case *Literal:
		if e.Kind == LitString {
			return quoteString(e.Text)
		}
		return e.Text
	case *IntervalLiteral:
		return interval.Format(e.Millis)
	case *Unary:
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
	case *Binary:
		p := precOf(e)
		return operand(e.L, p, false) + " " + e.Op + " " + operand(e.R, p, true)
	case *IsNull:
		x := formatExpr(e.X)
		if precOf(e.X) <= precCompare {
			x = "(" + x + ")"
		}
		if e.Not {
			return x + " IS NOT NULL"
		}
		return x + " IS NULL"
	case *Cast:
		if l, ok := e.X.(*Literal); ok && e.Literal {
			return e.Type.Name + " " + quoteString(l.Text)
		}
		return "CAST(" + formatExpr(e.X) + " AS " + formatType(e.Type) + ")"
	case *In:
		return operand(e.X, precCompare, false) + notWord(e.Not) + " IN (" + formatExprs(e.List) + ")"
	case *Between:
		return operand(e.X, precCompare, false) + notWord(e.Not) + " BETWEEN " +
			operand(e.Lo, precCompare, false) + " AND " + operand(e.Hi, precCompare, false)
	case *Like:
		// TiDB reads only a simple expression as the pattern.
		pat := formatExpr(e.Pattern)
		if precOf(e.Pattern) != precAtom {
			pat = "(" + pat + ")"
		}
		s := operand(e.X, precCompare, false) + notWord(e.Not) + " LIKE " + pat
		if e.Escape != nil {
			s += " ESCAPE " + formatExpr(e.Escape)
		}
		return s
	case *Case:
		return formatCase(e)
	case *Extract:
		return "EXTRACT(" + e.Unit + " FROM " + formatExpr(e.X) + ")"
	case *Trim:
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
	case *FieldAccess:
		return formatAccessed(e.X) + "." + quoteName(e.Field.Name)
	case *ItemAccess:
		return formatAccessed(e.X) + "[" + formatExpr(e.Index) + "]"
	case *FuncCall:
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
		name := e.Name
		if !isIdentifier(name) || strings.HasPrefix(name, "_") {
			name = "`" + strings.ReplaceAll(name, "`", "``") + "`" // a back-quoted UDF name
		}
		switch {
		case e.Star:
			return name + "(*)"
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
	case *WindowCall:
		return e.Kind.String() + "(" + formatExprs(e.Args) + ")"
	case *WindowAux:
		return e.Kind.String() + "_" + e.Prop.String() + "(" + formatExprs(e.Args) + ")"
	}
	return fmt.Sprintf("/* unknown expression %T */", e)
}

func notWord(not bool) string {
	if not {
		return " NOT"
	}
	return ""
}

func formatCase(e *Case) string {
	var b strings.Builder
	b.WriteString("CASE")
	if e.Operand != nil {
		b.WriteString(" " + formatExpr(e.Operand))
	}
	for _, w := range e.Whens {
		b.WriteString(" WHEN " + formatExpr(w.Cond) + " THEN " + formatExpr(w.Result))
	}
	if e.Else != nil {
		b.WriteString(" ELSE " + formatExpr(e.Else))
	}
	b.WriteString(" END")
	return b.String()
}
