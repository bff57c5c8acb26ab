package catalog

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/sql"
)

// Column is one column of a table: physical (read by the source) or
// computed from physical columns (Computed is set).
type Column struct {
	Name     string
	SQLType  string // as Flink prints it, e.g. TIMESTAMP(3)
	Type     arrow.DataType
	NotNull  bool
	Computed sql.Expr // nil for a physical column
	Proctime bool     // the column is PROCTIME(): a processing-time attribute
	// Metadata is the key of a METADATA column (its FROM 'key', or its
	// name): the source fills it, not the format; "" for other columns.
	Metadata string
	// Virtual marks METADATA ... VIRTUAL: a column only read.
	Virtual bool
	Comment string
	At      sql.Pos
}

// Table is a declared table: its columns, rowtime attribute and options.
type Table struct {
	Name      string
	Columns   []Column
	Watermark *Watermark // nil when the table has no rowtime attribute
	Options   Options
	Comment   string
	At        sql.Pos
	// Src is the SQL text At and the options' positions are in (the
	// script or shell statement that declared the table), so an error
	// found later, by a query of another text, can show that line.
	Src string
	// Attached, when set, is where a table a Go program registered reads
	// its rows or writes its results (rows it pushes, an io.Reader, an
	// array.RecordReader, a callback), in place of a 'connector' option.
	Attached Attachment
	// PrimaryKey is the declared PRIMARY KEY ... NOT ENFORCED, or nil.
	PrimaryKey *PrimaryKey
	// PartitionKeys are the columns of PARTITIONED BY, in order, as the
	// columns spell them; nil for a table without partitions.
	PartitionKeys []string
	PartitionsAt  sql.Pos // where PARTITIONED BY's first column is
	// Def is the CREATE TABLE the table was made from (after LIKE's
	// merging), which CREATE TABLE ... LIKE starts from; nil for a table
	// a Go program registered without one.
	Def *sql.CreateTable
	// Hinted are the options a table hint of the statement planned set
	// (they are in Options too): their positions are in the statement's
	// text, not in Src. Only the planner's copy of a table has them.
	Hinted   Options
	schema   *arrow.Schema
	physical *arrow.Schema
}

// PrimaryKey is a table's PRIMARY KEY (cols) NOT ENFORCED: declared, not
// checked against the rows (Flink does not own the data), its columns made
// NOT NULL as Flink makes them.
type PrimaryKey struct {
	Name    string // the constraint's name; Flink's PK_a_b when not named
	Columns []string
	At      sql.Pos
}

// Schema is the table's Arrow schema, one field per column, physical and
// computed, in declaration order.
func (t *Table) Schema() *arrow.Schema { return t.schema }

// PhysicalSchema holds only the columns a source reads, in order.
func (t *Table) PhysicalSchema() *arrow.Schema { return t.physical }

// Column finds a column by name: exact match first, then a unique
// case-insensitive match. It returns the column's index or -1.
func (t *Table) Column(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	found := -1
	for i, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// ColumnNames lists the column names in order.
func (t *Table) ColumnNames() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// Options are a table's WITH options in the order written.
type Options []sql.Option

// Get returns an option's value; keys are case-sensitive as in Flink.
func (o Options) Get(key string) (string, bool) {
	for _, opt := range o {
		if opt.Key == key {
			return opt.Value, true
		}
	}
	return "", false
}

// Lookup returns the whole option (with its position) for key.
func (o Options) Lookup(key string) (sql.Option, bool) {
	for _, opt := range o {
		if opt.Key == key {
			return opt, true
		}
	}
	return sql.Option{}, false
}

// NewDerivedTable describes the rows of a subquery or view as a table the
// outer query reads. timeAttr is the index of the column that is a time
// attribute (a window's *_ROWTIME, or the inner table's rowtime passed
// through), or -1: its watermark comes from upstream, not from a generator.
func NewDerivedTable(name string, cols []Column, timeAttr int, at sql.Pos) *Table {
	t := &Table{Name: name, Columns: cols, At: at}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.Field()
	}
	t.schema = arrow.NewSchema(fields, nil)
	t.physical = t.schema
	if timeAttr >= 0 {
		t.Watermark = &Watermark{Column: cols[timeAttr].Name, Index: timeAttr, Bounded: true, Upstream: true, At: at}
	}
	return t
}

// Attachment is what a Go program attached a table to: the connector that
// plans the table's reads and writes is named by the attachment, not by a
// 'connector' option. The catalog does not look further inside it.
type Attachment interface {
	// Connector is the identifier of the registered connector that plans
	// the table (exec/connector).
	Connector() string
	// SuppliesWatermarks reports a source that gives its own watermarks,
	// the only kind SOURCE_WATERMARK() fits.
	SuppliesWatermarks() bool
	// Release drops what the attachment still holds once the table is
	// dropped or the engine closed.
	Release()
}
