package blackhole

import (
	"context"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// Name is the connector's identifier.
const Name = "blackhole"

var options = []connector.Option{connector.ConnectorOption}

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 120, SinkRank: 20, Options: options, Partitioned: true, NewSink: planSink})
}

// sink drops every row.
type sink struct{}

func planSink(t *catalog.Table, _ sql.Option) (connector.TableSink, error) {
	allowed := connector.Keys(options, connector.Sink)
	for _, o := range t.Options {
		if !connector.Contains(allowed, o.Key) {
			return nil, connector.UnsupportedOption(o, Name, allowed)
		}
	}
	return sink{}, nil
}

func (sink) Bind(*catalog.Table, []catalog.Column) {}

func (sink) AppendOnly() bool { return false }

func (sink) Open(context.Context, *connector.SinkRun) (writer.ResultWriter, error) {
	return newWriter(), nil
}
