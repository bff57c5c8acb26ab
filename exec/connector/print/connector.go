package print

import (
	"context"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// Name is the connector's identifier.
const Name = "print"

var options = []connector.Option{
	connector.ConnectorOption,
	{Key: "print-identifier", Type: "string", Scope: connector.Sink, Description: "prefix of every printed row"},
	{Key: "standard-error", Type: "bool", Default: "false", Scope: connector.Sink, Description: "not supported yet: print writes to standard output"},
}

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 110, SinkRank: 10, Options: options, Partitioned: true, NewSink: planSink})
}

// sink prints the rows of one INSERT.
type sink struct {
	identifier string
	precisions []int // the columns' timeprecision, -1 for most
}

func planSink(t *catalog.Table, _ sql.Option) (connector.TableSink, error) {
	allowed := connector.Keys(options, connector.Sink)
	for _, o := range t.Options {
		if !connector.Contains(allowed, o.Key) {
			return nil, connector.UnsupportedOption(o, Name, allowed)
		}
		if o.Key == "standard-error" {
			return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option 'standard-error' is not supported yet: print writes to standard output")
		}
	}
	id, _ := t.Options.Get("print-identifier")
	s := &sink{identifier: id}
	for _, c := range t.Columns {
		s.precisions = append(s.precisions, c.TimePrecision())
	}
	return s, nil
}

func (s *sink) Bind(*catalog.Table, []catalog.Column) {}

func (s *sink) AppendOnly() bool { return false }

func (s *sink) Open(_ context.Context, run *connector.SinkRun) (writer.ResultWriter, error) {
	return newWriter(run.Stdout, s.identifier, run.Location, s.precisions), nil
}
