package textsource

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/windowop"
)

// Plan makes the read of table t in format with the table's format and
// watermark options checked, for a connector that reads text: the caller
// says where from (Path and Splits, Stream, or Input). The options read
// are returned for what only some connectors use ('source.monitor-interval').
func Plan(t *catalog.Table, format string, env *connector.Env) (*Source, formats.Settings, error) {
	f, err := formats.Read(t)
	if err != nil {
		return nil, f, err
	}
	mf, err := connector.MaxFuture(t)
	if err != nil {
		return nil, f, err
	}
	decoding, err := connector.FormatDecoding(format, t)
	if err != nil {
		return nil, f, err
	}
	schema := connector.SourceSchema(t)
	if connector.IsChangelogFormat(format) {
		// an update stream: the row kind leads, as windowop's operators emit it
		schema = arrow.NewSchema(append([]arrow.Field{windowop.RowKindField()}, schema.Fields()...), nil)
	}
	return &Source{
		SourceSpec: exec.SourceSpec{
			MaxFuture:   mf,
			Schema:      schema,
			BatchSize:   env.BatchSize,
			IdleTimeout: f.Idle,
			BadRowsPath: env.BadRowsPath,
			SkipBadRows: f.CSV.IgnoreParseErrors,
			BadRowText:  decoding.AppendRow,
		},
		Format:         format,
		Decoding:       decoding,
		MaxRecordBytes: env.MaxRecordBytes,
	}, f, nil
}
