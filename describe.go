package wsql

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// show answers the SHOW statements as Flink's SQL client does.
func (r *runner) show(s *sql.Show) error {
	switch s.What {
	case "TABLES":
		// Flink's SHOW TABLES lists views too.
		names := append(r.e.cat.TableNames(), r.e.cat.ViewNames()...)
		return r.table([]string{"table name"}, oneColumn(likeFilter(s, sortedCopy(names))))
	case "VIEWS":
		return r.table([]string{"view name"}, oneColumn(likeFilter(s, r.e.cat.ViewNames())))
	case "COLUMNS":
		return r.showColumns(s)
	case "CREATE TABLE", "CREATE VIEW":
		return r.showCreate(s)
	case "CURRENT CATALOG", "CATALOGS":
		return r.table([]string{map[bool]string{true: "current catalog name", false: "catalog name"}[s.What == "CURRENT CATALOG"]}, oneColumn([]string{defaultCatalog}))
	case "CURRENT DATABASE", "DATABASES":
		return r.table([]string{map[bool]string{true: "current database name", false: "database name"}[s.What == "CURRENT DATABASE"]}, oneColumn([]string{defaultDatabase}))
	case "FUNCTIONS":
		return r.table([]string{"function name"}, oneColumn(r.e.functions().RunnableNames()))
	case "USER FUNCTIONS":
		return r.table([]string{"function name"}, oneColumn(r.e.functions().UserNames()))
	}
	return sql.Errorf(sql.ErrUnsupported, s.At, "SHOW %s is not supported yet", s.What)
}

// ListTables writes the session's tables and views through out's
// NewWriter, sorted by name, with their kind ("table" or "view") and
// connector (NULL for a view): the listing of the shell's \d, as psql's \d
// lists relations.
func (e *Engine) ListTables(ctx context.Context, out Output) error {
	_, end, err := e.begin(ctx)
	if err != nil {
		return err
	}
	defer end()
	e.mu.Lock()
	defer e.mu.Unlock()
	var rows [][]string
	for _, name := range e.cat.TableNames() {
		rows = append(rows, []string{name, "table", tableConnector(e.cat.Table(name))})
	}
	for _, name := range e.cat.ViewNames() {
		rows = append(rows, []string{name, "view", ""})
	}
	sort.SliceStable(rows, func(i, j int) bool { return strings.ToLower(rows[i][0]) < strings.ToLower(rows[j][0]) })
	r := &runner{e: e, out: out}
	return r.table([]string{"name", "kind", "connector"}, rows)
}

// tableConnector is the connector a table reads and writes through: its
// 'connector' option, or the Go program's attachment.
func tableConnector(t *catalog.Table) string {
	if t.Attached != nil {
		return t.Attached.Connector()
	}
	c, _ := t.Options.Get("connector")
	return c
}

// Describe writes the columns of the table or view named name through
// out's NewWriter, as DESCRIBE does. The name is taken as it is, not read
// as SQL; for a name that is neither, the error says so, without a
// position, and suggests the closest name.
func (e *Engine) Describe(ctx context.Context, name string, out Output) error {
	_, end, err := e.begin(ctx)
	if err != nil {
		return err
	}
	defer end()
	e.mu.Lock()
	defer e.mu.Unlock()
	r := &runner{e: e, out: out}
	return r.describe(&sql.Describe{Name: sql.Ident{Name: name}})
}

// describe answers DESCRIBE with Flink's columns: name, type, null, key,
// extras, watermark.
func (r *runner) describe(s *sql.Describe) error {
	header, rows, err := r.describeRows(s.Name)
	if err != nil {
		return err
	}
	return r.table(header, rows)
}

// describeRows are DESCRIBE's header and rows for the table or view name.
func (r *runner) describeRows(name sql.Ident) ([]string, [][]string, error) {
	cat := r.e.cat
	header := []string{"name", "type", "null", "key", "extras", "watermark"}
	if t := cat.Table(name.Name); t != nil {
		var rows [][]string
		for i, c := range t.Columns {
			typ := c.SQLType
			if c.NotNull {
				typ += " NOT NULL"
			}
			if t.Watermark != nil && t.Watermark.Index == i {
				typ += " *ROWTIME*"
			}
			if c.Proctime {
				typ += " *PROCTIME*"
			}
			extras, wm := "", ""
			if c.Computed != nil {
				extras = "AS " + sqlfmt.Expr(c.Computed)
			}
			if c.Metadata != "" {
				extras = metadataExtras(c)
			}
			if t.Watermark != nil && t.Watermark.Index == i {
				wm = sqlfmt.Expr(t.Watermark.Expr)
			}
			key := "" // Flink's PRI(a, b) on each column of the primary key
			if k := t.PrimaryKey; k != nil && slices.Contains(k.Columns, c.Name) {
				key = "PRI(" + strings.Join(k.Columns, ", ") + ")"
			}
			rows = append(rows, []string{c.Name, typ, boolText(!c.NotNull), key, extras, wm})
		}
		return header, rows, nil
	}
	if v := cat.View(name.Name); v != nil {
		p, err := planner.PlanSelect(v.Query, cat, planner.Options{Functions: r.e.functions()})
		if err != nil {
			return nil, nil, err
		}
		var rows [][]string
		for i, f := range p.Schema().Fields() {
			name := f.Name
			if i < len(v.Columns) {
				name = v.Columns[i]
			}
			rows = append(rows, []string{name, planner.FieldTypeName(f), boolText(f.Nullable), "", "", ""})
		}
		return header, rows, nil
	}
	names := append(cat.TableNames(), cat.ViewNames()...)
	return nil, nil, sql.Errorf(sql.ErrInvalid, name.At, "table or view %s does not exist%s", name.Name, sql.DidYouMean(name.Name, names))
}

// table writes a small all-STRING result (SHOW, DESCRIBE, SET) through the
// caller's writer; an empty cell is NULL.
func (r *runner) table(header []string, rows [][]string) error {
	fields := make([]arrow.Field, len(header))
	for i, h := range header {
		fields[i] = arrow.Field{Name: h, Type: arrow.BinaryTypes.String, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(r.e.mem, schema)
	defer b.Release()
	for _, row := range rows {
		for i, v := range row {
			sb := b.Field(i).(*array.StringBuilder)
			if v == "" {
				sb.AppendNull()
			} else {
				sb.Append(v)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	w, err := r.writer(schema)
	if err != nil {
		return err
	}
	if err := w.WriteBatch(rec); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

func oneColumn(vals []string) [][]string {
	rows := make([][]string, len(vals))
	for i, v := range vals {
		rows[i] = []string{v}
	}
	return rows
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i]) < strings.ToLower(out[j]) })
	return out
}

func boolText(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

// metadataExtras describes a METADATA column as Flink's DESCRIBE does:
// METADATA [FROM 'key'] [VIRTUAL] (FROM when the key is not the name).
func metadataExtras(c catalog.Column) string {
	s := "METADATA"
	if c.Metadata != c.Name {
		s += " FROM '" + c.Metadata + "'"
	}
	if c.Virtual {
		s += " VIRTUAL"
	}
	return s
}
