package filesystem

import (
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
)

// Name is the connector's identifier.
const Name = "filesystem"

// options are the WITH keys of the connector itself; the format's own
// come from the format registry.
var options = []connector.Option{
	connector.ConnectorOption,
	{Key: "path", Type: "string", Required: true, Scope: connector.Both, Description: "a file, or a directory of files (one split each)"},
	{Key: connector.KeyFormat, Type: "csv | json | parquet", Required: true, Scope: connector.Both, Description: "the format of the files (parquet: written only)"},
	connector.IdleTimeoutOption,
	connector.MaxFutureOption,
	{Key: formats.KeyMonitorInterval, Type: "duration", Scope: connector.Source, Description: "follow the files and the directory, polling every interval (unbounded)"},
}

// filesystemOptions are the keys of the connector, source and sink alike.
var filesystemOptions = connector.Keys(options, connector.Both)

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 10, SinkRank: 30, Options: options, PathKey: "path", NewSource: planSource, NewSink: planSink})
}
