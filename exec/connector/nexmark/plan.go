package nexmark

import (
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// Nexmark defaults: 10000 events per second of event time, starting at a
// fixed instant so runs are reproducible.
const defaultNexmarkRate = 10000

var defaultNexmarkStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()

// planNexmarkSource plans the 'nexmark' connector: one of the Nexmark
// benchmark's tables, 'nexmark.table' = person | auction | bid. The
// table's physical columns must be columns of that table, by name and
// type (any subset, in any order); dateTime is TIMESTAMP(3), the event
// time. 'events.num' bounds the events of all three kinds (a bid table of
// 5000 events has 4600 rows); without it the source is unbounded.
func planSource(t *catalog.Table, conn sql.Option, opts *connector.Env) (exec.Source, error) {
	g := &Source{EventsNum: -1, Rate: defaultNexmarkRate, TimeStart: defaultNexmarkStart}
	var table sql.Option
	for _, o := range t.Options {
		var err error
		switch o.Key {
		case "connector":
		case "nexmark.table":
			table = o
			g.Table = strings.ToLower(o.Value)
			if Columns(g.Table) == nil {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option 'nexmark.table' must be one of %s, got '%s'%s",
					strings.Join(Tables(), ", "), o.Value, sql.DidYouMean(o.Value, Tables()))
			}
		case "events.num":
			g.EventsNum, err = connector.NonNegativeInt(o)
		case "events.rate":
			if g.Rate, err = connector.Int(o); err == nil && g.Rate <= 0 {
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a positive number of events per second, got '%s'", o.Key, o.Value)
			}
		case "event.time.start":
			g.TimeStart, err = connector.Timestamp(o)
		case "seed":
			g.Seed, err = connector.Int(o)
		default:
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'nexmark'%s", o.Key, sql.DidYouMean(o.Key, nexmarkOptions))
		}
		if err != nil {
			return nil, err
		}
	}
	if table.Key == "" {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'nexmark.table' option (%s)", t.Name, strings.Join(Tables(), ", "))
	}
	cols := Columns(g.Table)
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	schema := connector.SourceSchema(t)
	for _, f := range schema.Fields() {
		c := t.Columns[t.Column(f.Name)]
		j := -1
		for k, nc := range cols {
			if nc.Name == f.Name {
				j = k
			}
		}
		if j < 0 {
			return nil, sql.Errorf(sql.ErrInvalid, c.At, "nexmark table '%s' has no column %s (its columns: %s)%s",
				g.Table, f.Name, strings.Join(names, ", "), sql.DidYouMean(f.Name, names))
		}
		if !arrow.TypeEqual(f.Type, cols[j].Type) {
			return nil, sql.Errorf(sql.ErrInvalid, c.At, "column %s of nexmark table '%s' is %s, not %s",
				f.Name, g.Table, nexmarkSQLType(cols[j].Type), c.SQLType)
		}
		g.Columns = append(g.Columns, j)
	}
	return &exec.MakerSource{Maker: g, SourceSpec: exec.SourceSpec{Schema: schema, BatchSize: opts.BatchSize}}, nil
}

func nexmarkSQLType(t arrow.DataType) string {
	switch t.ID() {
	case arrow.INT64:
		return "BIGINT"
	case arrow.TIMESTAMP:
		return "TIMESTAMP(3)"
	}
	return "STRING"
}
