package textsource

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
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
	return &Source{
		SourceSpec: exec.SourceSpec{
			MaxFuture:   mf,
			Schema:      connector.SourceSchema(t),
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
