package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/planner/sinklength"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Sink is the table an INSERT writes to.
type Sink struct {
	Table     *catalog.Table
	Connector string // the connector's identifier, for EXPLAIN
	// Target is what the connector planned: the engine opens it for a run.
	Target connector.TableSink
}

// PlanInsert plans INSERT INTO sink SELECT ...: the query, then a check that
// its columns fit the sink's, in number and type.
func PlanInsert(stmt *sql.Insert, cat *catalog.Catalog, opts Options) (*Plan, error) {
	if stmt.Overwrite {
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.At, "INSERT OVERWRITE is not supported: a stream can only append")
	}
	t := cat.Table(stmt.Table.Name)
	if t == nil {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Table.At, "sink table %s does not exist%s", stmt.Table.Name, sql.DidYouMean(stmt.Table.Name, cat.TableNames()))
	}
	t, err := hintedTable(t, stmt.Hint, opts)
	if err != nil {
		return nil, err
	}
	sink, err := planSink(t)
	if err != nil {
		return nil, err
	}
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
				return nil, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found in sink table %s%s", c.Name, t.Name, sql.DidYouMean(c.Name, t.ColumnNames()))
			}
			cols = append(cols, t.Columns[i])
		}
	}
	if q := stmt.Query; q.From.Values != nil && len(q.Items) == 1 && q.Items[0].Star {
		opts.valuesInto = cols // INSERT ... VALUES
	}
	p, err := PlanSelect(stmt.Query, cat, opts)
	if err != nil {
		return nil, err
	}
	p.Sink = sink
	out, shift := p.Schema(), 0
	if out.NumFields() > 0 && windowop.IsRowKindField(out.Field(0)) {
		if sink.Target.AppendOnly() {
			node, fix := p.updateNode()
			return nil, sql.Errorf(sql.ErrUnsupported, stmt.Table.At,
				"Table sink 'default_catalog.default_database.%s' doesn't support consuming update changes which is produced by node %s: the '%s' connector writes append-only; %s, or write to a sink that takes updates ('print', 'blackhole', 'filesystem' with format 'debezium-json', or 'filesystem' in csv or json, 'upsert-kafka' or 'jdbc' with a PRIMARY KEY ... NOT ENFORCED)",
				t.Name, node, sink.Connector, fix)
		}
		// an update stream's row kind travels with the rows, not as a column
		out = arrow.NewSchema(out.Fields()[1:], nil)
		shift = 1
	}
	if out.NumFields() != len(cols) {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Query.At, "the query has %d columns but sink table %s has %d (%s)",
			out.NumFields(), t.Name, len(cols), strings.Join(t.ColumnNames(), ", "))
	}
	if p.Rank == nil && p.SetOp == nil && p.TVF == nil && p.Order == nil {
		// the projection is the last stage: Flink's implicit casts to the
		// sink's types go there
		sinklength.ImplicitCasts(&p.Project, cols, shift, opts.Location)
		out = arrow.NewSchema(p.Schema().Fields()[shift:], nil)
	}
	for i, c := range cols {
		if c.Computed != nil {
			return nil, sql.Errorf(sql.ErrInvalid, stmt.Table.At, "sink table %s has a computed column %s, which cannot be written", t.Name, c.Name)
		}
		if !arrow.TypeEqual(out.Field(i).Type, c.Type) {
			at := stmt.Query.At // a * names no one column
			if items := stmt.Query.Items; i < len(items) && !items[i].Star {
				at = items[i].At
			}
			return nil, sql.Errorf(sql.ErrInvalid, at, "query column %d (%s) is %s but sink column %s is %s; add a CAST",
				i+1, out.Field(i).Name, sqlTypeName(out.Field(i).Type), c.Name, c.SQLType)
		}
	}
	sinklength.Precision(&p.Project, cols, shift)
	if opts.TrimPad {
		sinklength.Fit(&p.Project, cols, shift)
	}
	sink.Target.Bind(t, cols)
	if rc, ok := sink.Target.(connector.RunChecker); ok && opts.Run {
		// last, so a query refused anyway needs no server
		if err := rc.CheckRun(); err != nil {
			return nil, inDeclaration(t, err)
		}
	}
	return p, nil
}

func planSink(t *catalog.Table) (*Sink, error) {
	s, err := planTableSink(t)
	if err != nil {
		return nil, inDeclaration(t, err)
	}
	return s, nil
}

// planTableSink plans the write of planSink by the table's connector.
func planTableSink(t *catalog.Table) (*Sink, error) {
	if t.Attached != nil {
		c, ok := connector.Lookup(t.Attached.Connector())
		if !ok || c.NewSink == nil {
			return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s is a source registered from Go and cannot be written to", t.Name)
		}
		target, err := c.PlanSink(t, sql.Option{})
		if err != nil {
			return nil, err
		}
		return &Sink{Table: t, Connector: c.Name, Target: target}, nil
	}
	conn, ok := t.Options.Lookup(connector.KeyConnector)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "sink table %s has no 'connector' option", t.Name)
	}
	c, err := connector.SinkConnector(conn)
	if err != nil {
		return nil, err
	}
	target, err := c.PlanSink(t, conn)
	if err != nil {
		return nil, err
	}
	return &Sink{Table: t, Connector: c.Name, Target: target}, nil
}
