package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// planSource plans the read of a table by its connector, found in the
// connector registry (exec/connector): the 'connector' option's, or the
// one a table registered from Go is attached to.
func planSource(t *catalog.Table, opts Options) (exec.Source, error) {
	src, err := planTableSource(t, opts)
	if err != nil {
		return nil, inDeclaration(t, err)
	}
	spec := src.Spec()
	spec.Table = t.Name
	if t.Watermark != nil && spec.BadRowsPath == "" {
		// rows outside the event times wsql accepts go to the bad-rows
		// file, whatever the source
		spec.BadRowsPath = opts.BadRowsPath
	}
	return src, nil
}

// planTableSource plans the source of planSource by the table's connector.
func planTableSource(t *catalog.Table, opts Options) (exec.Source, error) {
	if err := checkSourceWatermark(t); err != nil {
		return nil, err
	}
	env := opts.connectorEnv()
	if v, ok := t.Attached.(*valuesRows); ok {
		return v.source(t, opts), nil
	}
	if t.Attached != nil {
		c, ok := connector.Lookup(t.Attached.Connector())
		if !ok || c.NewSource == nil {
			return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s has a source wsql does not know (%T)", t.Name, t.Attached)
		}
		return c.PlanSource(t, sql.Option{}, env)
	}
	conn, ok := t.Options.Lookup(connector.KeyConnector)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s has no 'connector' option", t.Name)
	}
	c, err := connector.SourceConnector(conn)
	if err != nil {
		return nil, err
	}
	return c.PlanSource(t, conn, env)
}

// connectorEnv is what the planning of a source may use besides the table.
func (o Options) connectorEnv() *connector.Env {
	return &connector.Env{BatchSize: o.BatchSize, Clock: o.Clock, Location: o.Location, Stdin: o.Stdin,
		BadRowsPath: o.BadRowsPath, MaxRecordBytes: o.MaxRecordBytes, Run: o.Run}
}

// checkSourceWatermark refuses SOURCE_WATERMARK() on a table whose source
// supplies no watermarks.
func checkSourceWatermark(t *catalog.Table) error {
	if t.Watermark == nil || !t.Watermark.Source {
		return nil
	}
	if t.Attached != nil && t.Attached.SuppliesWatermarks() {
		return nil
	}
	return sql.Errorf(sql.ErrInvalid, t.Watermark.Expr.Pos(), "SOURCE_WATERMARK() needs a source that supplies watermarks: a table whose rows a Go program pushes (Engine.CreatePushTable)")
}

// SourceSchema is the table's physical schema; a physical rowtime column
// is NOT NULL to the decoder: a row without event time is a bad row.
func SourceSchema(t *catalog.Table) *arrow.Schema { return connector.SourceSchema(t) }
