package filesystem

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/connector/textsource"
)

// Name is the connector's identifier.
const Name = "filesystem"

// options are the WITH keys of the connector itself; the format's own
// come from the format registry.
var options = []connector.Option{
	connector.ConnectorOption,
	{Key: "path", Type: "string", Required: true, Scope: connector.Both, Description: "a file, or a directory of files (one split each)"},
	{Key: connector.KeyFormat, Type: "csv | json | debezium-json | parquet", Required: true, Scope: connector.Both, Description: "the format of the files (parquet: written only)"},
	connector.IdleTimeoutOption,
	connector.MaxFutureOption,
	{Key: formats.KeyMonitorInterval, Type: "duration", Scope: connector.Source, Description: "follow the files and the directory, polling every interval (unbounded)"},
}

// metadata are the keys METADATA columns read, as Flink's filesystem
// connector documents them: the file each row was read from.
var metadata = []connector.MetadataKey{
	{Key: textsource.MetaPath, SQLType: "STRING", Type: arrow.BinaryTypes.String, Description: "the path of the file, as listed from the table's path"},
	{Key: textsource.MetaName, SQLType: "STRING", Type: arrow.BinaryTypes.String, Description: "the name of the file: the last element of its path"},
	{Key: textsource.MetaSize, SQLType: "BIGINT", Type: arrow.PrimitiveTypes.Int64, Description: "the size of the file in bytes, when its read started"},
	{Key: textsource.MetaModificationTime, SQLType: "TIMESTAMP_LTZ(3)", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Description: "when the file was last modified, when its read started"},
}

// filesystemOptions are the keys of the connector, source and sink alike.
var filesystemOptions = connector.Keys(options, connector.Both)

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 10, SinkRank: 30, Options: options, PathKey: "path", Metadata: metadata, NewSource: planSource, NewSink: planSink})
}
