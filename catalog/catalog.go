package catalog

import (
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/wsql/wsql/sql"
)

// Catalog is the set of tables of one session. It is not safe for
// concurrent use; the engine serialises statements.
type Catalog struct {
	tables map[string]*Table
}

// New returns an empty catalog.
func New() *Catalog { return &Catalog{tables: make(map[string]*Table)} }

// CreateTable validates a CREATE TABLE statement and registers the table.
// With IF NOT EXISTS an existing table is kept and nil returned.
func (c *Catalog) CreateTable(stmt *sql.CreateTable) (*Table, error) {
	if old := c.Table(stmt.Name.Name); old != nil {
		if stmt.IfNotExists {
			return old, nil
		}
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Name.At, "table %s already exists (declared at %s)", old.Name, old.At)
	}
	t, err := NewTable(stmt)
	if err != nil {
		return nil, err
	}
	c.tables[strings.ToLower(t.Name)] = t
	return t, nil
}

// NewTable builds a Table from CREATE TABLE without registering it.
func NewTable(stmt *sql.CreateTable) (*Table, error) {
	t := &Table{Name: stmt.Name.Name, Options: Options(stmt.Options), At: stmt.At}
	if len(stmt.Columns) == 0 {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Name.At, "table %s has no columns", t.Name)
	}
	var fields []arrow.Field
	for _, def := range stmt.Columns {
		if def.Computed != nil {
			return nil, sql.Errorf(sql.ErrUnsupported, def.Name.At, "computed column %s is not supported yet", def.Name.Name)
		}
		if t.Column(def.Name.Name) >= 0 && t.Columns[t.Column(def.Name.Name)].Name == def.Name.Name {
			return nil, sql.Errorf(sql.ErrInvalid, def.Name.At, "duplicate column %s", def.Name.Name)
		}
		dt, err := ArrowType(def.Type)
		if err != nil {
			return nil, err
		}
		t.Columns = append(t.Columns, Column{
			Name: def.Name.Name, SQLType: TypeString(def.Type), Type: dt, NotNull: def.NotNull, At: def.Name.At,
		})
		fields = append(fields, arrow.Field{Name: def.Name.Name, Type: dt, Nullable: !def.NotNull})
	}
	t.schema = arrow.NewSchema(fields, nil)
	if stmt.Watermark != nil {
		wm, err := newWatermark(stmt.Watermark, t)
		if err != nil {
			return nil, err
		}
		t.Watermark = wm
	}
	for i, o := range stmt.Options {
		for _, p := range stmt.Options[:i] {
			if p.Key == o.Key {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' is given twice", o.Key)
			}
		}
	}
	return t, nil
}

// Table returns the table called name (case-insensitive), or nil.
func (c *Catalog) Table(name string) *Table { return c.tables[strings.ToLower(name)] }

// TableNames lists the tables in name order.
func (c *Catalog) TableNames() []string {
	out := make([]string, 0, len(c.tables))
	for _, t := range c.tables {
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}
