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
				continue
			}
			nn := ""
			if c.NotNull {
				nn = " NOT NULL"
			}
			line(b, 1, "Column %s %s%s @%s (type @%s)", c.Name.Name, typeString(c.Type), nn, c.Name.At, c.Type.At)
		}
		if w := s.Watermark; w != nil {
			line(b, 1, "Watermark FOR %s @%s (column @%s)", w.Column.Name, w.At, w.Column.At)
			dumpExpr(b, 2, w.Expr)
		}
		if s.Comment != "" {
			line(b, 1, "Comment %q", s.Comment)
		}
		for _, o := range s.Options {
			line(b, 1, "Option %q = %q @%s", o.Key, o.Value, o.At)
		}
	case *Select:
		line(b, 0, "Select @%s", s.At)
		for _, it := range s.Items {
			alias := ""
			if it.Alias != "" {
				alias = " AS " + it.Alias
			}
			if it.Star {
				line(b, 1, "Item *%s @%s", alias, it.At)
				continue
			}
			line(b, 1, "Item%s @%s", alias, it.At)
			dumpExpr(b, 2, it.Expr)
		}
		if s.From.Name.Name != "" {
			alias := ""
			if s.From.Alias != "" {
				alias = " AS " + s.From.Alias
			}
			line(b, 1, "From %s%s @%s", s.From.Name.Name, alias, s.From.Name.At)
		}
		if s.Where != nil {
			line(b, 1, "Where")
			dumpExpr(b, 2, s.Where)
		}
		if len(s.GroupBy) > 0 {
			line(b, 1, "GroupBy")
			for _, e := range s.GroupBy {
				dumpExpr(b, 2, e)
			}
		}
		if s.Having != nil {
			line(b, 1, "Having")
			dumpExpr(b, 2, s.Having)
		}
	default:
		line(b, 0, "%T", s)
	}
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
		line(b, d, "FuncCall %s%s @%s", e.Name, flags, e.At)
		for _, a := range e.Args {
			dumpExpr(b, d+1, a)
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
