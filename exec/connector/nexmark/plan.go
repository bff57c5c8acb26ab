package nexmark

import (
	"slices"
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

// planSource plans the 'nexmark' connector. With 'nexmark.table' =
// person | auction | bid, the table is one of the Nexmark benchmark's
// tables: its physical columns must be columns of that table, by name and
// type (any subset, in any order); dateTime is TIMESTAMP(3), the event
// time. 'events.num' bounds the events of all three kinds (a bid table of
// 5000 events has 4600 rows); without it the source is unbounded. Without
// 'nexmark.table', the table is the event stream as Flink's nexmark
// declares it (EventColumns), one row per event.
func planSource(t *catalog.Table, conn sql.Option, opts *connector.Env) (exec.Source, error) {
	g := &Source{EventsNum: -1, Rate: defaultNexmarkRate, TimeStart: defaultNexmarkStart}
	var table, num, rate, firstRate, nextRate sql.Option
	var proportions [3]sql.Option
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
			num = o
			g.EventsNum, err = connector.NonNegativeInt(o)
		case "events.rate":
			rate = o
			g.Rate, err = positiveInt(o)
		case "first-event.rate":
			firstRate = o
			g.Rate, err = positiveInt(o)
		case "next-event.rate":
			nextRate = o
			_, err = positiveInt(o)
		case "person.proportion", "auction.proportion", "bid.proportion":
			k := slices.Index(nexmarkTableNames, strings.TrimSuffix(o.Key, ".proportion"))
			proportions[k] = o
			g.Proportions[k], err = positiveInt(o)
		case "event.time.start":
			g.TimeStart, err = connector.Timestamp(o)
		case "seed":
			g.Seed, err = connector.Int(o)
		default:
			if slices.Contains(flinkOnlyOptions, o.Key) {
				return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' of Flink's nexmark connector is not supported yet", o.Key)
			}
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'nexmark'%s", o.Key, sql.DidYouMean(o.Key, nexmarkOptions))
		}
		if err != nil {
			return nil, err
		}
	}
	if rate.Key != "" && firstRate.Key != "" {
		return nil, sql.Errorf(sql.ErrInvalid, firstRate.At, "options 'events.rate' and 'first-event.rate' are the same; give one")
	}
	if nextRate.Key != "" {
		if next, _ := positiveInt(nextRate); next != g.Rate {
			return nil, sql.Errorf(sql.ErrUnsupported, nextRate.At, "option 'next-event.rate' = '%s' differs from the rate of the first events (%d): rate shapes are not supported yet", nextRate.Value, g.Rate)
		}
	}
	if g.Proportions != [3]int64{} {
		m := (&Source{}).mix()
		defaults := [3]int64{m.person, m.auction, m.total - m.person - m.auction}
		for k := range g.Proportions {
			if proportions[k].Key == "" {
				g.Proportions[k] = defaults[k]
			}
		}
	}
	schema := connector.SourceSchema(t)
	if table.Key == "" {
		if num.Key != "" && g.EventsNum == 0 { // Flink's nexmark: 0 is unbounded
			g.EventsNum = -1
		}
		return planEvents(t, g, schema, opts)
	}
	cols := Columns(g.Table)
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
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

// planEvents plans the event stream: the physical columns must be
// columns of EventColumns, by name and type (any subset, in any order),
// a ROW with the fields of its table in their order.
func planEvents(t *catalog.Table, g *Source, schema *arrow.Schema, opts *connector.Env) (exec.Source, error) {
	cols := EventColumns()
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	for _, f := range schema.Fields() {
		c := t.Columns[t.Column(f.Name)]
		j := slices.IndexFunc(cols, func(nc Column) bool { return strings.EqualFold(nc.Name, f.Name) })
		if j < 0 {
			return nil, sql.Errorf(sql.ErrInvalid, c.At, "the nexmark event table has no column %s (its columns: %s; or give 'nexmark.table' for one of %s)%s",
				f.Name, strings.Join(names, ", "), strings.Join(Tables(), ", "), sql.DidYouMean(f.Name, names))
		}
		if !sameType(f.Type, cols[j].Type) {
			return nil, sql.Errorf(sql.ErrInvalid, c.At, "column %s of the nexmark event table is %s, not %s (or give 'nexmark.table' for one of %s)",
				f.Name, nexmarkSQLType(cols[j].Type), c.SQLType, strings.Join(Tables(), ", "))
		}
		g.Columns = append(g.Columns, j)
	}
	return &exec.MakerSource{Maker: g, SourceSpec: exec.SourceSpec{Schema: schema, BatchSize: opts.BatchSize}}, nil
}

// sameType tells whether a declared type is want: a ROW's fields by
// name (any case) and type, in order, whatever their nullability.
func sameType(got, want arrow.DataType) bool {
	gs, ok1 := got.(*arrow.StructType)
	ws, ok2 := want.(*arrow.StructType)
	if !ok1 || !ok2 {
		return arrow.TypeEqual(got, want)
	}
	if gs.NumFields() != ws.NumFields() {
		return false
	}
	for i, f := range gs.Fields() {
		w := ws.Field(i)
		if !strings.EqualFold(f.Name, w.Name) || !sameType(f.Type, w.Type) {
			return false
		}
	}
	return true
}

func positiveInt(o sql.Option) (int64, error) {
	v, err := connector.Int(o)
	if err == nil && v <= 0 {
		err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a positive number, got '%s'", o.Key, o.Value)
	}
	return v, err
}

func nexmarkSQLType(t arrow.DataType) string {
	switch t.ID() {
	case arrow.INT32:
		return "INT"
	case arrow.INT64:
		return "BIGINT"
	case arrow.TIMESTAMP:
		return "TIMESTAMP(3)"
	case arrow.STRUCT:
		var fields []string
		for _, f := range t.(*arrow.StructType).Fields() {
			fields = append(fields, f.Name+" "+nexmarkSQLType(f.Type))
		}
		return "ROW<" + strings.Join(fields, ", ") + ">"
	}
	return "STRING"
}
