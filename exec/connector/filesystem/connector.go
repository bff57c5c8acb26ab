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
	{Key: keyDefaultName, Type: "string", Default: DefaultPartitionName, Scope: connector.Both, Description: "the directory name of a NULL or empty partition value"},
	{Key: keyCommitTrigger, Type: "process-time", Default: "process-time", Scope: connector.Sink, Description: "when a partition is committed: when the checkpoint committing its files completes ('partition-time' is not supported yet)"},
	{Key: keyCommitDelay, Type: "duration", Default: "0 s", Scope: connector.Sink, Description: "how long after its creation a partition is committed; only 0 is supported yet"},
	{Key: keyCommitPolicy, Type: "success-file", Scope: connector.Sink, Description: "what committing a partition does: 'success-file' writes a success file into it"},
	{Key: keySuccessFileName, Type: "string", Default: DefaultSuccessFileName, Scope: connector.Sink, Description: "the name of the success file of the 'success-file' policy"},
	{Key: keyRollSize, Type: "memory size", Default: "128 mb", Scope: connector.Sink, Description: "a part file is ended once it holds this much (with checkpoints)"},
	{Key: keyRolloverInterval, Type: "duration", Default: "30 min", Scope: connector.Sink, Description: "a part file is ended once open this long, checked at each batch written to it (with checkpoints)"},
	{Key: keyRollCheckInterval, Type: "duration", Default: "1 min", Scope: connector.Sink, Description: "accepted for Flink's DDL: wsql checks 'sink.rolling-policy.rollover-interval' at each batch written"},
	{Key: keyInactivityInterval, Type: "duration", Scope: connector.Sink, Description: "not supported yet"},
	{Key: keyTimestampPattern, Type: "string", Scope: connector.Both, Description: "the 'partition-time' trigger's extraction of a time from partition values: not supported yet"},
	{Key: keyExtractorKind, Type: "string", Scope: connector.Both, Description: "the 'partition-time' trigger's extractor: not supported yet"},
	{Key: keyTimestampFormatter, Type: "string", Scope: connector.Both, Description: "the 'partition-time' trigger's extractor: not supported yet"},
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
	connector.Register(&connector.Connector{Name: Name, Rank: 10, SinkRank: 30, Options: options, PathKey: "path", Metadata: metadata, Partitioned: true,
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
