package wsql

import (
	"regexp"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// wsql has one catalog holding one database, named as Flink names its
// defaults, so scripts written for Flink's SQL client run unchanged.
const (
	defaultCatalog  = "default_catalog"
	defaultDatabase = "default_database"
)

// use accepts USE of the one database and USE CATALOG of the one catalog.
func (r *runner) use(u *sql.Use) error {
	want, what := defaultDatabase, "database"
	if u.Catalog {
		want, what = defaultCatalog, "catalog"
	}
	if u.Name.Name != want {
		return sql.Errorf(sql.ErrUnsupported, u.Name.At, "%s %s does not exist: wsql has one catalog, %s, with one database, %s", what, u.Name.Name, defaultCatalog, defaultDatabase)
	}
	return nil
}

// likeFilter keeps the names s's [NOT] LIKE | ILIKE pattern selects, as
// Flink's SHOW ... LIKE does: % is any run of characters, _ any one.
func likeFilter(s *sql.Show, names []string) []string {
	if s.Like == "" {
		return names
	}
	var re strings.Builder
	if s.Like == "ILIKE" {
		re.WriteString("(?is)^")
	} else {
		re.WriteString("(?s)^")
	}
	for _, c := range s.Pattern {
		switch c {
		case '%':
			re.WriteString(".*")
		case '_':
			re.WriteString(".")
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	m := regexp.MustCompile(re.String() + "$")
	var out []string
	for _, n := range names {
		if m.MatchString(n) != s.NotLike {
			out = append(out, n)
		}
	}
	return out
}

// showColumns answers SHOW COLUMNS with DESCRIBE's rows, filtered by name.
func (r *runner) showColumns(s *sql.Show) error {
	header, rows, err := r.describeRows(s.Name)
	if err != nil {
		return err
	}
	var names []string
	for _, row := range rows {
		names = append(names, row[0])
	}
	keep := likeFilter(s, names)
	var kept [][]string
	for _, row := range rows {
		if len(keep) > 0 && keep[0] == row[0] {
			kept = append(kept, row)
			keep = keep[1:]
		}
	}
	return r.table(header, kept)
}

// showCreate answers SHOW CREATE TABLE and SHOW CREATE VIEW with the
// statement in Flink's layout: the name qualified by catalog and database,
// one column per line, the WITH options in declared order. Like Flink's SQL
// client it prints the statement as text, as EXPLAIN does.
func (r *runner) showCreate(s *sql.Show) error {
	text, err := r.createText(s)
	if err != nil {
		return err
	}
	if r.out.OnText != nil {
		r.out.OnText(text + "\n")
	}
	return nil
}

func (r *runner) createText(s *sql.Show) (string, error) {
	cat := r.e.cat
	name := s.Name.Name
	if t := cat.Table(name); t != nil && s.What == "CREATE TABLE" {
		return createTableText(t), nil
	}
	if v := cat.View(name); v != nil && s.What == "CREATE VIEW" {
		return r.createViewText(v), nil
	}
	if s.What == "CREATE TABLE" && cat.View(name) != nil {
		return "", sql.Errorf(sql.ErrInvalid, s.Name.At, "%s is a view; use SHOW CREATE VIEW", name)
	}
	if s.What == "CREATE VIEW" && cat.Table(name) != nil {
		return "", sql.Errorf(sql.ErrInvalid, s.Name.At, "%s is a table; use SHOW CREATE TABLE", name)
	}
	names := append(cat.TableNames(), cat.ViewNames()...)
	return "", sql.Errorf(sql.ErrInvalid, s.Name.At, "%s %s does not exist%s", strings.ToLower(strings.TrimPrefix(s.What, "CREATE ")), name, sql.DidYouMean(name, names))
}

func qualifiedName(name string) string {
	return "`" + defaultCatalog + "`.`" + defaultDatabase + "`." + backquote(name)
}

func backquote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func quoted(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func createTableText(t *catalog.Table) string {
	var lines []string
	for _, c := range t.Columns {
		l := "  " + backquote(c.Name) + " "
		if c.Computed != nil {
			l += "AS " + sqlfmt.Expr(c.Computed)
		} else {
			l += c.SQLType
			if c.NotNull {
				l += " NOT NULL"
			}
		}
		if c.Comment != "" {
			l += " COMMENT " + quoted(c.Comment)
		}
		lines = append(lines, l)
	}
	if w := t.Watermark; w != nil {
		lines = append(lines, "  WATERMARK FOR "+backquote(t.Columns[w.Index].Name)+" AS "+sqlfmt.Expr(w.Expr))
	}
	if k := t.PrimaryKey; k != nil {
		cols := make([]string, len(k.Columns))
		for i, c := range k.Columns {
			cols[i] = backquote(c)
		}
		lines = append(lines, "  CONSTRAINT "+backquote(k.Name)+" PRIMARY KEY ("+strings.Join(cols, ", ")+") NOT ENFORCED")
	}
	var b strings.Builder
	b.WriteString("CREATE TABLE " + qualifiedName(t.Name) + " (\n" + strings.Join(lines, ",\n") + "\n)")
	if t.Comment != "" {
		b.WriteString("\nCOMMENT " + quoted(t.Comment))
	}
	if len(t.PartitionKeys) > 0 {
		cols := make([]string, len(t.PartitionKeys))
		for i, c := range t.PartitionKeys {
			cols[i] = backquote(c)
		}
		b.WriteString("\nPARTITIONED BY (" + strings.Join(cols, ", ") + ")")
	}
	if len(t.Options) > 0 {
		var opts []string
		for _, o := range t.Options {
			opts = append(opts, "  "+quoted(o.Key)+" = "+quoted(connector.ShownValue(o.Key, o.Value)))
		}
		if t.Comment != "" || len(t.PartitionKeys) > 0 {
			b.WriteString("\nWITH (\n" + strings.Join(opts, ",\n") + "\n)")
			return b.String()
		}
		b.WriteString(" WITH (\n" + strings.Join(opts, ",\n") + "\n)")
	}
	return b.String()
}

// createViewText names the view's columns, as Flink does, when the query
// still plans.
func (r *runner) createViewText(v *catalog.View) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if v.Temporary {
		b.WriteString("TEMPORARY ")
	}
	b.WriteString("VIEW " + qualifiedName(v.Name))
	if p, err := planner.PlanSelect(v.Query, r.e.cat, planner.Options{Functions: r.e.functions()}); err == nil {
		var cols []string
		for i, f := range p.Schema().Fields() {
			n := f.Name
			if i < len(v.Columns) {
				n = v.Columns[i]
			}
			cols = append(cols, "  "+backquote(n))
		}
		b.WriteString(" (\n" + strings.Join(cols, ",\n") + "\n)")
	}
	b.WriteString("\nAS " + strings.TrimSpace(v.Text))
	return b.String()
}
