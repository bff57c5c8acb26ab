package filesystem

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
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
	{Key: connector.KeyLookupCacheTTL, Type: "duration", Scope: connector.Source, Description: "as the table of a lookup join (FOR SYSTEM_TIME AS OF a PROCTIME() column): how often the join looks at the files, reading them again when they changed (default 1 s)"},
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
	connector.Register(&connector.Connector{Name: Name, Rank: 10, SinkRank: 30, Options: options, PathKey: "path", Metadata: metadata,
		NewSource: planSource, NewSink: planSink, LookupFiles: lookupFiles, LegacyKeys: legacyKeys})
}

// legacyKeys are the keys of Flink's legacy 'connector.type' =
// 'filesystem' with the old CSV format, and the current keys that mean
// the same; "" has no effect (the schema is always the table's columns).
var legacyKeys = map[string]string{
	"connector.path":                 "path",
	"connector.property-version":     "",
	"format.type":                    connector.KeyFormat,
	"format.property-version":        "",
	"format.derive-schema":           "",
	"format.field-delimiter":         "csv.field-delimiter",
	"format.quote-character":         "csv.quote-character",
	"format.ignore-first-line":       "csv.ignore-first-line",
	"format.ignore-parse-errors":     "csv.ignore-parse-errors",
	"format.allow-comments":          "csv.allow-comments",
	"format.null-literal":            "csv.null-literal",
	"format.array-element-delimiter": "csv.array-element-delimiter",
}

// lookupFiles is the path of a table a lookup join reads whole: any but a
// followed one, whose read never ends.
func lookupFiles(t *catalog.Table) (string, error) {
	if _, follows := t.Options.Lookup(formats.KeyMonitorInterval); follows {
		return "", fmt.Errorf("table %s is followed ('%s'), and a followed table is never read to its end", t.Name, formats.KeyMonitorInterval)
	}
	path, _ := t.Options.Lookup("path")
	return path.Value, nil
}
