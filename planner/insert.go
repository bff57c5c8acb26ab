package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Sink is the table an INSERT writes to.
type Sink struct {
	Table     *catalog.Table
	Connector string // print or blackhole
	// PrintIdentifier is the print connector's 'print-identifier' prefix.
	PrintIdentifier string
}

// sinkConnectors are the connectors an INSERT can write to today.
var sinkConnectors = []string{"print", "blackhole"}

// PlanInsert plans INSERT INTO sink SELECT ...: the query, then a check that
// its columns fit the sink's, in number and type.
func PlanInsert(stmt *sql.Insert, cat *catalog.Catalog, opts Options) (*Plan, error) {
	if stmt.Overwrite {
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.At, "INSERT OVERWRITE is not supported: a stream can only append")
	}
	t := cat.Table(stmt.Table.Name)
	if t == nil {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Table.At, "sink table %s does not exist%s", stmt.Table.Name, catalog.DidYouMean(stmt.Table.Name, cat.TableNames()))
	}
	sink, err := planSink(t)
	if err != nil {
		return nil, err
	}
	p, err := PlanSelect(stmt.Query, cat, opts)
	if err != nil {
		return nil, err
	}
	p.Sink = sink
	// The sink's columns in the order the INSERT names them.
	cols := t.Columns
	if len(stmt.Columns) > 0 {
		if len(stmt.Columns) != len(t.Columns) {
			return nil, sql.Errorf(sql.ErrUnsupported, stmt.Columns[0].At, "INSERT into a subset of the sink's columns is not supported yet; list all %d columns", len(t.Columns))
		}
		cols = nil
		for _, c := range stmt.Columns {
			i := t.Column(c.Name)
			if i < 0 {
				return nil, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found in sink table %s%s", c.Name, t.Name, catalog.DidYouMean(c.Name, t.ColumnNames()))
			}
			cols = append(cols, t.Columns[i])
		}
	}
	out := p.Schema()
	if out.NumFields() > 0 && windowop.IsRowKindField(out.Field(0)) {
		// an update stream's row kind travels with the rows, not as a column
		out = arrow.NewSchema(out.Fields()[1:], nil)
	}
	if out.NumFields() != len(cols) {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Query.At, "the query has %d columns but sink table %s has %d (%s)",
			out.NumFields(), t.Name, len(cols), strings.Join(t.ColumnNames(), ", "))
	}
	for i, c := range cols {
		if c.Computed != nil {
			return nil, sql.Errorf(sql.ErrInvalid, stmt.Table.At, "sink table %s has a computed column %s, which cannot be written", t.Name, c.Name)
		}
		if !arrow.TypeEqual(out.Field(i).Type, c.Type) {
			return nil, sql.Errorf(sql.ErrInvalid, stmt.Query.Items[i].At, "query column %d (%s) is %s but sink column %s is %s; add a CAST",
				i+1, out.Field(i).Name, sqlTypeName(out.Field(i).Type), c.Name, c.SQLType)
		}
	}
	return p, nil
}

func planSink(t *catalog.Table) (*Sink, error) {
	conn, ok := t.Options.Lookup("connector")
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "sink table %s has no 'connector' option", t.Name)
	}
	s := &Sink{Table: t, Connector: conn.Value}
	if !contains(sinkConnectors, conn.Value) {
		return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "writing to connector '%s' is not supported yet (supported: %s)", conn.Value, strings.Join(sinkConnectors, ", "))
	}
	allowed := map[string][]string{"print": {"connector", "print-identifier", "standard-error"}, "blackhole": {"connector"}}[s.Connector]
	for _, o := range t.Options {
		if !contains(allowed, o.Key) {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector '%s'%s", o.Key, s.Connector, catalog.DidYouMean(o.Key, allowed))
		}
		if o.Key == "standard-error" {
			return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option 'standard-error' is not supported yet: print writes to standard output")
		}
	}
	s.PrintIdentifier, _ = t.Options.Get("print-identifier")
	return s, nil
}
