package sql

import (
	"errors"
	"fmt"
	"strings"
)

// dump renders statements as an indented tree with positions, the format
// of the goldens in testdata/sql.
func dump(stmts []Statement) string {
	var b strings.Builder
	for _, s := range stmts {
		dumpStmt(&b, s)
	}
	return b.String()
}

func line(b *strings.Builder, depth int, format string, args ...any) {
	b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(b, format, args...)
	b.WriteByte('\n')
}

func dumpStmt(b *strings.Builder, s Statement) {
	switch s := s.(type) {
	case *CreateTable:
		ine := ""
		if s.IfNotExists {
			ine = " IF NOT EXISTS"
		}
		line(b, 0, "CreateTable%s %s @%s (name @%s)", ine, s.Name.Name, s.At, s.Name.At)
		for _, c := range s.Columns {
			if c.Computed != nil {
				line(b, 1, "Column %s AS @%s", c.Name.Name, c.Name.At)
				dumpExpr(b, 2, c.Computed)
				if c.Comment != "" {
					line(b, 2, "Comment %q", c.Comment)
				}
				continue
			}
			nn := ""
			if c.NotNull {
				nn = " NOT NULL"
			}
			if c.Metadata {
				nn += fmt.Sprintf(" METADATA FROM %q", c.MetadataKey)
				if c.Virtual {
					nn += " VIRTUAL"
				}
			}
			line(b, 1, "Column %s %s%s @%s (type @%s)", c.Name.Name, typeString(c.Type), nn, c.Name.At, c.Type.At)
			if c.Comment != "" {
				line(b, 2, "Comment %q", c.Comment)
			}
		}
		if w := s.Watermark; w != nil {
			line(b, 1, "Watermark FOR %s @%s (column @%s)", w.Column.Name, w.At, w.Column.At)
			dumpExpr(b, 2, w.Expr)
		}
		if k := s.PrimaryKey; k != nil {
			line(b, 1, "PrimaryKey %q @%s", k.Name, k.At)
			for _, c := range k.Columns {
				line(b, 2, "Column %s @%s", c.Name, c.At)
			}
		}
		if s.Comment != "" {
			line(b, 1, "Comment %q", s.Comment)
		}
		for _, o := range s.Options {
			line(b, 1, "Option %q = %q @%s", o.Key, o.Value, o.At)
		}
		if l := s.Like; l != nil {
			line(b, 1, "Like %s @%s (table @%s)", l.Table.Name, l.At, l.Table.At)
			for _, o := range l.Options {
				line(b, 2, "%s %s @%s", o.Mode, o.Feature, o.At)
			}
		}
		if s.Query != nil {
			dumpSelect(b, 1, s.Query)
		}
	case *Select:
		dumpSelect(b, 0, s)
	case *CreateView:
		line(b, 0, "CreateView%s%s %s @%s (name @%s)", opt(s.Temporary, " TEMPORARY"), opt(s.IfNotExists, " IF NOT EXISTS"), s.Name.Name, s.At, s.Name.At)
		for _, c := range s.Columns {
			line(b, 1, "Column %s @%s", c.Name, c.At)
		}
		if s.Comment != "" {
			line(b, 1, "Comment %q", s.Comment)
		}
		line(b, 1, "QueryText %q", s.QueryText)
		dumpSelect(b, 1, s.Query)
	case *Drop:
		what := "TABLE"
		if s.View {
			what = "VIEW"
		}
		line(b, 0, "Drop%s %s%s %s @%s (name @%s)", opt(s.Temporary, " TEMPORARY"), what, opt(s.IfExists, " IF EXISTS"), s.Name.Name, s.At, s.Name.At)
	case *CreateFunction:
		line(b, 0, "CreateFunction%s%s%s %s AS %q @%s (name @%s, identifier @%s)", opt(s.Temporary, " TEMPORARY"), opt(s.System, " SYSTEM"),
			opt(s.IfNotExists, " IF NOT EXISTS"), s.Name.Name, s.Identifier, s.At, s.Name.At, s.IdentifierAt)
	case *DropFunction:
		line(b, 0, "DropFunction%s%s%s %s @%s (name @%s)", opt(s.Temporary, " TEMPORARY"), opt(s.System, " SYSTEM"), opt(s.IfExists, " IF EXISTS"), s.Name.Name, s.At, s.Name.At)
	case *Set:
		line(b, 0, "Set %q = %q @%s", s.Key, s.Value, s.At)
	case *Reset:
		line(b, 0, "Reset %q @%s", s.Key, s.At)
	case *Show:
		line(b, 0, "Show %s @%s", s.What, s.At)
		if s.Name.Name != "" {
			line(b, 1, "Name %s @%s", s.Name.Name, s.Name.At)
		}
		if s.Like != "" {
			line(b, 1, "%s %q (not %v)", s.Like, s.Pattern, s.NotLike)
		}
	case *Use:
		line(b, 0, "Use %s catalog=%v @%s (name @%s)", s.Name.Name, s.Catalog, s.At, s.Name.At)
	case *Describe:
		line(b, 0, "Describe %s @%s (name @%s)", s.Name.Name, s.At, s.Name.At)
	case *Explain:
		line(b, 0, "Explain @%s", s.At)
		switch x := s.Stmt.(type) {
		case *Select:
			dumpSelect(b, 1, x)
		case *Insert:
			dumpInsert(b, 1, x)
		default:
			line(b, 1, "%T", x)
		}
	case *Insert:
		dumpInsert(b, 0, s)
	default:
		line(b, 0, "%T", s)
	}
}

func dumpInsert(b *strings.Builder, d int, s *Insert) {
	what := "INTO"
	if s.Overwrite {
		what = "OVERWRITE"
	}
	line(b, d, "Insert %s %s @%s (table @%s)", what, s.Table.Name, s.At, s.Table.At)
	dumpHint(b, d+1, s.Hint)
	for _, c := range s.Columns {
		line(b, d+1, "Column %s @%s", c.Name, c.At)
	}
	dumpSelect(b, d+1, s.Query)
}

func dumpHint(b *strings.Builder, d int, h *TableHint) {
	if h == nil {
		return
	}
	line(b, d, "Hint OPTIONS @%s", h.At)
	for _, o := range h.Options {
		line(b, d+1, "Option %q = %q @%s", o.Key, o.Value, o.At)
	}
}

func dumpSelect(b *strings.Builder, d int, s *Select) {
	for _, c := range s.With {
		line(b, d, "With %s @%s", c.Name.Name, c.Name.At)
		for _, col := range c.Columns {
			line(b, d+1, "Column %s @%s", col.Name, col.At)
		}
		dumpSelect(b, d+1, c.Query)
	}
	line(b, d, "Select @%s", s.At)
	if u := s.Set; u != nil {
		line(b, d+1, "%s @%s", u.Kind, u.At)
		for i, q := range u.Queries {
			if i > 0 {
				line(b, d+2, "after @%s", u.Ats[i-1])
			}
			dumpSelect(b, d+2, q)
		}
	}
	for _, it := range s.Items {
		alias := ""
		if it.Alias != "" {
			alias = " AS " + it.Alias
		}
		if it.Star {
			star := "*"
			if it.Table != "" {
				star = it.Table + ".*"
			}
			line(b, d+1, "Item %s%s @%s", star, alias, it.At)
			continue
		}
		line(b, d+1, "Item%s @%s", alias, it.At)
		dumpExpr(b, d+2, it.Expr)
	}
	dumpFrom(b, d+1, s.From)
	if s.Where != nil {
		line(b, d+1, "Where")
		dumpExpr(b, d+2, s.Where)
	}
	if len(s.GroupBy) > 0 {
		line(b, d+1, "GroupBy")
		for _, e := range s.GroupBy {
			dumpExpr(b, d+2, e)
		}
	}
	if s.Having != nil {
		line(b, d+1, "Having")
		dumpExpr(b, d+2, s.Having)
	}
	for _, o := range s.OrderBy {
		line(b, d+1, "OrderBy%s @%s", opt(o.Desc, " DESC"), o.At)
		if o.Expr == nil {
			line(b, d+2, "Position %d", o.Position)
		} else {
			dumpExpr(b, d+2, o.Expr)
		}
	}
	if s.Limit != nil {
		line(b, d+1, "Limit %d @%s", s.Limit.Count, s.Limit.At)
	}
}

func opt(on bool, s string) string {
	if on {
		return s
	}
	return ""
}

func typeString(t TypeName) string {
	switch {
	case t.Scale >= 0:
		return fmt.Sprintf("%s(%d,%d)", t.Name, t.Precision, t.Scale)
	case t.Precision >= 0:
		return fmt.Sprintf("%s(%d)", t.Name, t.Precision)
	}
	return t.Name
}

var litKinds = map[LiteralKind]string{LitNull: "null", LitBool: "bool", LitInt: "int", LitDecimal: "decimal", LitFloat: "float", LitString: "string"}

func dumpExpr(b *strings.Builder, d int, e Expr) {
	switch e := e.(type) {
	case *ColumnRef:
		if e.Table != "" {
			line(b, d, "ColumnRef %s.%s @%s", e.Table, e.Name, e.At)
		} else {
			line(b, d, "ColumnRef %s @%s", e.Name, e.At)
		}
	case *Literal:
		line(b, d, "Literal %s %q @%s", litKinds[e.Kind], e.Text, e.At)
	case *IntervalLiteral:
		line(b, d, "Interval %dms %q @%s", e.Millis, e.Text, e.At)
	case *Unary:
		line(b, d, "Unary %s @%s", e.Op, e.At)
		dumpExpr(b, d+1, e.X)
	case *Binary:
		line(b, d, "Binary %s @%s", e.Op, e.At)
		dumpExpr(b, d+1, e.L)
		dumpExpr(b, d+1, e.R)
	case *IsNull:
		not := ""
		if e.Not {
			not = " NOT"
		}
		line(b, d, "Is%s Null @%s", not, e.At)
		dumpExpr(b, d+1, e.X)
	case *Cast:
		line(b, d, "Cast %s @%s (type @%s)", typeString(e.Type), e.At, e.Type.At)
		dumpExpr(b, d+1, e.X)
	case *FuncCall:
		flags := ""
		if e.Star {
			flags += " *"
		}
		if e.Distinct {
			flags += " DISTINCT"
		}
		if e.IgnoreNulls {
			flags += " IGNORE NULLS"
		}
		if c := e.JSON; c != nil {
			flags += fmt.Sprintf(" json{wrapper=%q empty=%q error=%q null=%q type=%q not=%v}", c.Wrapper, c.OnEmpty, c.OnError, c.OnNull, c.Type, c.Not)
			if c.Returning != nil {
				flags += " returning " + typeString(*c.Returning) + " @" + c.Returning.At.String()
			}
		}
		line(b, d, "FuncCall %s%s @%s", e.Name, flags, e.At)
		for _, a := range e.Args {
			dumpExpr(b, d+1, a)
		}
		if e.Filter != nil {
			line(b, d+1, "Filter")
			dumpExpr(b, d+2, e.Filter)
		}
	case *WindowCall:
		line(b, d, "WindowCall %s @%s", e.Kind, e.At)
		for _, a := range e.Args {
			dumpExpr(b, d+1, a)
		}
	case *WindowAux:
		line(b, d, "WindowAux %s_%s @%s", e.Kind, e.Prop, e.At)
		for _, a := range e.Args {
			dumpExpr(b, d+1, a)
		}
	case *Subquery:
		line(b, d, "Subquery%s @%s", opt(e.Not, " NOT"), e.At)
		if e.X != nil {
			dumpExpr(b, d+1, e.X)
		}
		dumpSelect(b, d+1, e.Query)
	case *ScalarSubquery:
		line(b, d, "ScalarSubquery @%s", e.At)
		dumpSelect(b, d+1, e.Query)
	case *In:
		line(b, d, "In%s @%s", opt(e.Not, " NOT"), e.At)
		dumpExpr(b, d+1, e.X)
		line(b, d+1, "List")
		for _, a := range e.List {
			dumpExpr(b, d+2, a)
		}
	case *Between:
		line(b, d, "Between%s @%s", opt(e.Not, " NOT"), e.At)
		dumpExpr(b, d+1, e.X)
		dumpExpr(b, d+1, e.Lo)
		dumpExpr(b, d+1, e.Hi)
	case *Like:
		line(b, d, "Like%s @%s", opt(e.Not, " NOT"), e.At)
		dumpExpr(b, d+1, e.X)
		dumpExpr(b, d+1, e.Pattern)
		if e.Escape != nil {
			line(b, d+1, "Escape")
			dumpExpr(b, d+2, e.Escape)
		}
	case *Case:
		line(b, d, "Case @%s", e.At)
		if e.Operand != nil {
			line(b, d+1, "Operand")
			dumpExpr(b, d+2, e.Operand)
		}
		for _, w := range e.Whens {
			line(b, d+1, "When")
			dumpExpr(b, d+2, w.Cond)
			line(b, d+1, "Then")
			dumpExpr(b, d+2, w.Result)
		}
		if e.Else != nil {
			line(b, d+1, "Else")
			dumpExpr(b, d+2, e.Else)
		}
	case *Extract:
		line(b, d, "Extract %s @%s", e.Unit, e.At)
		dumpExpr(b, d+1, e.X)
	case *FieldAccess:
		line(b, d, "FieldAccess %s @%s (field @%s)", e.Field.Name, e.At, e.Field.At)
		dumpExpr(b, d+1, e.X)
	case *ItemAccess:
		line(b, d, "ItemAccess @%s", e.At)
		dumpExpr(b, d+1, e.X)
		dumpExpr(b, d+1, e.Index)
	case *Trim:
		line(b, d, "Trim %s @%s", e.Mode, e.At)
		if e.Chars != nil {
			line(b, d+1, "Chars")
			dumpExpr(b, d+2, e.Chars)
		}
		dumpExpr(b, d+1, e.X)
	default:
		line(b, d, "%T", e)
	}
}

// dumpErr renders a Parse error with its kind and a caret under src.
func dumpErr(src string, err error) string {
	var list ErrorList
	if !errors.As(err, &list) {
		return "error (not an ErrorList): " + err.Error() + "\n"
	}
	var b strings.Builder
	for _, e := range list {
		fmt.Fprintf(&b, "error [%v]: %s\n%s\n", e.Kind, e, Caret(src, e.Pos))
	}
	return b.String()
}

// dumpFrom writes a FROM clause's table reference, a join as its kind
// with both sides and the condition below.
func dumpFrom(b *strings.Builder, d int, f TableRef) {
	if j := f.Join; j != nil {
		comma := ""
		if j.Comma {
			comma = " (comma)"
		}
		line(b, d, "Join %s%s @%s", j.Kind, comma, j.At)
		dumpFrom(b, d+1, j.Left)
		dumpFrom(b, d+1, j.Right)
		if j.On != nil {
			line(b, d+1, "On")
			dumpExpr(b, d+2, j.On)
		}
		for _, c := range j.Using {
			line(b, d+1, "Using %s", c.Name)
		}
		return
	}
	if lat := f.Lateral; lat != nil {
		ord := ""
		if lat.Ordinality {
			ord = " WITH ORDINALITY"
		}
		if lat.Function != nil {
			line(b, d, "From LATERAL TABLE AS %q @%s", lat.Alias, lat.At)
			dumpExpr(b, d+1, lat.Function)
		} else {
			line(b, d, "From UNNEST%s AS %q @%s", ord, lat.Alias, lat.At)
			dumpExpr(b, d+1, lat.Unnest)
		}
		for _, c := range lat.Columns {
			line(b, d+1, "Column %s @%s", c.Name, c.At)
		}
	}
	if v := f.Values; v != nil {
		line(b, d, "From VALUES AS %q @%s", v.Alias, v.At)
		for _, c := range v.Columns {
			line(b, d+1, "Column %s @%s", c.Name, c.At)
		}
		for i, row := range v.Rows {
			line(b, d+1, "Row %d", i+1)
			for _, e := range row {
				dumpExpr(b, d+2, e)
			}
		}
	}
	if f.Name.Name != "" || f.Subquery != nil {
		alias := ""
		if f.Alias != "" {
			alias = " AS " + f.Alias
		}
		if q := f.Subquery; q != nil {
			line(b, d, "From (subquery)%s @%s", alias, f.At)
			dumpSelect(b, d+1, q)
		} else if w := f.Window; w != nil {
			line(b, d, "From %s%s @%s", w.Kind, alias, w.At)
			line(b, d+1, "Table %s @%s", w.Table.Name, w.Table.At)
			for _, k := range w.PartitionBy {
				line(b, d+1, "PartitionBy %s @%s", k.Name, k.At)
			}
			line(b, d+1, "TimeCol %s @%s", w.TimeCol.Name, w.TimeCol.At)
			for _, a := range w.Args {
				dumpExpr(b, d+1, a)
			}
		} else {
			line(b, d, "From %s%s @%s", f.Name.Name, alias, f.Name.At)
			if f.SystemTime != nil {
				line(b, d+1, "ForSystemTimeAsOf")
				dumpExpr(b, d+2, f.SystemTime)
			}
			dumpHint(b, d+1, f.Hint)
		}
	}
}
