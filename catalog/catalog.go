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
	views  map[string]*View
	root   *Catalog // the session's catalog of a statement's copy (statement_scope.go)
}

// New returns an empty catalog.
func New() *Catalog {
	return &Catalog{tables: make(map[string]*Table), views: make(map[string]*View)}
}

// CreateTable validates a CREATE TABLE statement and registers the table.
// With IF NOT EXISTS an existing table is kept and returned.
func (c *Catalog) CreateTable(stmt *sql.CreateTable) (*Table, error) {
	if old := c.Table(stmt.Name.Name); old != nil {
		if stmt.IfNotExists {
			return old, nil
		}
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Name.At, "table %s already exists (declared at %s)", old.Name, old.At)
	}
	if v := c.View(stmt.Name.Name); v != nil {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Name.At, "a view named %s already exists (declared at %s)", v.Name, v.At)
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
	switch {
	case stmt.Like != nil:
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Like.At, "internal: LIKE is merged before the table is made (MergeLike)")
	case stmt.Query != nil:
		return nil, sql.Errorf(sql.ErrInvalid, stmt.At, "internal: CREATE TABLE ... AS SELECT takes its columns from the query first")
	}
	t := &Table{Name: stmt.Name.Name, Options: Options(stmt.Options), Comment: stmt.Comment, At: stmt.At}
	if len(stmt.Columns) == 0 {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Name.At, "table %s has no columns", t.Name)
	}
	// Computed columns read physical columns declared anywhere in the list.
	phys := &Table{Name: t.Name}
	for _, def := range stmt.Columns {
		if def.Computed == nil {
			dt, _ := ArrowType(def.Type) // an error is reported with the column below
			phys.Columns = append(phys.Columns, Column{Name: def.Name.Name, SQLType: TypeString(def.Type), Type: dt})
		}
	}
	var fields []arrow.Field
	for _, def := range stmt.Columns {
		if i := t.Column(def.Name.Name); i >= 0 && t.Columns[i].Name == def.Name.Name {
			return nil, sql.Errorf(sql.ErrInvalid, def.Name.At, "duplicate column %s", def.Name.Name)
		}
		var col Column
		if def.Computed != nil {
			c, err := computedColumn(def, phys, t)
			if err != nil {
				return nil, err
			}
			col = c
		} else {
			dt, err := ArrowType(def.Type)
			if err != nil {
				return nil, err
			}
			col = Column{Name: def.Name.Name, SQLType: TypeString(def.Type), Type: dt, NotNull: def.NotNull, At: def.Name.At}
			if def.Metadata {
				// the connector checks the key and type when it plans a read
				col.Metadata, col.Virtual = def.MetadataKey, def.Virtual
				if col.Metadata == "" {
					col.Metadata = def.Name.Name
				}
			}
		}
		col.Comment = def.Comment
		t.Columns = append(t.Columns, col)
		fields = append(fields, col.Field())
	}
	if err := setPrimaryKey(stmt.PrimaryKey, t, fields); err != nil {
		return nil, err
	}
	if err := setPartitionKeys(stmt.PartitionedBy, t); err != nil {
		return nil, err
	}
	t.physical = arrow.NewSchema(physicalFields(t, fields), nil)
	t.schema = arrow.NewSchema(fields, nil)
	t.Def = stmt
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

// CreateView registers a view. The caller has checked that its query
// plans. With IF NOT EXISTS an existing view is kept.
func (c *Catalog) CreateView(stmt *sql.CreateView) (*View, error) {
	if old := c.View(stmt.Name.Name); old != nil {
		if stmt.IfNotExists {
			return old, nil
		}
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Name.At, "view %s already exists (declared at %s)", old.Name, old.At)
	}
	if t := c.Table(stmt.Name.Name); t != nil {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Name.At, "a table named %s already exists (declared at %s)", t.Name, t.At)
	}
	v := &View{Name: stmt.Name.Name, Query: stmt.Query, Text: stmt.QueryText, At: stmt.At, Temporary: stmt.Temporary}
	for _, col := range stmt.Columns {
		v.Columns = append(v.Columns, col.Name)
	}
	c.views[strings.ToLower(v.Name)] = v
	return v, nil
}

// Drop removes a table or view. Without IF EXISTS a missing name is an
// error that suggests the closest existing one; dropping a table with DROP
// VIEW (or the reverse) is an error too, as in Flink.
func (c *Catalog) Drop(stmt *sql.Drop) error {
	key := strings.ToLower(stmt.Name.Name)
	kind, names, exists := "table", c.TableNames(), c.tables[key] != nil
	other := c.views[key] != nil
	if stmt.View {
		kind, names, exists, other = "view", c.ViewNames(), c.views[key] != nil, c.tables[key] != nil
	}
	if !exists {
		if other {
			return sql.Errorf(sql.ErrInvalid, stmt.Name.At, "%s is not a %s; use DROP %s", stmt.Name.Name, kind, map[bool]string{true: "TABLE", false: "VIEW"}[stmt.View])
		}
		if stmt.IfExists {
			return nil
		}
		return sql.Errorf(sql.ErrInvalid, stmt.Name.At, "%s %s does not exist%s", kind, stmt.Name.Name, sql.DidYouMean(stmt.Name.Name, names))
	}
	if stmt.View {
		delete(c.views, key)
	} else {
		delete(c.tables, key)
	}
	return nil
}

// View returns the view called name (case-insensitive), or nil.
func (c *Catalog) View(name string) *View { return c.views[strings.ToLower(name)] }

// ViewNames lists the views in name order.
func (c *Catalog) ViewNames() []string {
	out := make([]string, 0, len(c.views))
	for _, v := range c.views {
		out = append(out, v.Name)
	}
	sort.Strings(out)
	return out
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
