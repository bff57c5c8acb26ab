package filesystem

import (
	"context"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// sink is the filesystem connector as the target of an INSERT.
type sink struct {
	file    *fileSink
	options sinkOptions
}

// planSink checks a filesystem sink's options: those of the source are
// accepted (a table can be read and written); the format's writer refuses
// what it cannot write.
func planSink(t *catalog.Table, conn sql.Option) (connector.TableSink, error) {
	if format, ok := t.Options.Lookup(connector.KeyFormat); ok && !connector.Contains(connector.ReadFormats(), format.Value) {
		if f, ok := connector.LookupFormat(format.Value); ok && f.Writes {
			return planWriteOnlySink(t, conn, format.Value)
		}
		writable := connector.WriteFormats()
		return nil, sql.Errorf(sql.ErrUnsupported, format.At, "format '%s' is not supported yet (supported for writing: %s)%s",
			format.Value, strings.Join(writable, ", "), sql.DidYouMean(format.Value, writable))
	}
	path, format, err := checkOptions(t, conn)
	if err != nil {
		return nil, err
	}
	writing, err := connector.FormatWriting(format.Value, t)
	if err != nil {
		return nil, err
	}
	return newSink(t, path.Value, format.Value, writing)
}

// newSink is the sink of table t with its partition and rolling options.
// A PRIMARY KEY makes the file the materialised stream, which has no
// partitions in wsql.
func newSink(t *catalog.Table, path, format string, writing writer.Writing) (*sink, error) {
	f := newFileSink(t, path, format, writing)
	o, err := readSinkOptions(t)
	if err != nil {
		return nil, err
	}
	if f.Key != nil && len(t.PartitionKeys) > 0 {
		return nil, sql.Errorf(sql.ErrUnsupported, t.PartitionsAt, "a filesystem table with a PRIMARY KEY is written as the materialised stream, which cannot be PARTITIONED BY yet; drop the PRIMARY KEY or PARTITIONED BY of table %s", t.Name)
	}
	f.RollSize, f.RolloverInterval = o.RollSize, o.RolloverInterval
	return &sink{file: f, options: o}, nil
}

// newFileSink is the sink of table t: a changelog format's writes row
// kinds; a PRIMARY KEY in csv or json makes it an upsert sink.
func newFileSink(t *catalog.Table, path, format string, writing writer.Writing) *fileSink {
	f := &fileSink{Path: path, Format: format, Writing: writing, Changelog: connector.IsChangelogFormat(format)}
	if t.PrimaryKey != nil && !f.Changelog && (format == formats.CSV || format == formats.JSON) {
		for _, c := range t.PrimaryKey.Columns {
			f.Key = append(f.Key, t.Column(c))
		}
	}
	return f
}

// planWriteOnlySink checks a filesystem sink of a format that is only
// written: the connector's options and the format's, no options of a
// format that reads.
func planWriteOnlySink(t *catalog.Table, conn sql.Option, name string) (connector.TableSink, error) {
	known := append(append([]string(nil), filesystemOptions...), connector.FormatOptionKeys(name)...)
	for _, o := range t.Options {
		if connector.Contains(known, o.Key) {
			continue
		}
		for _, f := range connector.ReadFormats() {
			if connector.Contains(connector.FormatOptionKeys(f), o.Key) {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' belongs to format '%s', but table %s has format '%s'", o.Key, f, t.Name, name)
			}
		}
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'filesystem' with format '%s'%s",
			o.Key, name, sql.DidYouMean(o.Key, known))
	}
	path, ok := t.Options.Lookup("path")
	if !ok || path.Value == "" {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'path' option for connector 'filesystem'", t.Name)
	}
	writing, err := connector.FormatWriting(name, t)
	if err != nil {
		return nil, err
	}
	return newSink(t, path.Value, name, writing)
}

// Bind gives the file the sink's declared schema: its names, and NOT NULL
// where the table says so (checked on each batch written).
func (s *sink) Bind(t *catalog.Table, cols []catalog.Column) {
	s.file.Table = t.Name
	s.file.Schema, s.file.Columns = connector.TableColumns(t, cols, true)
	if len(t.PartitionKeys) > 0 {
		keys := make([]int, len(t.PartitionKeys))
		for i, k := range t.PartitionKeys {
			keys[i] = t.Column(k)
		}
		p := newPartitioning(s.file, keys)
		p.DefaultName, p.SuccessFile = s.options.DefaultName, s.options.SuccessFile
		s.file.Partition = p
	}
}

// AppendOnly is true, as Flink's filesystem sink cannot consume update
// changes, unless the format writes them (debezium-json) or a PRIMARY KEY
// makes the file the stream materialised by it.
func (s *sink) AppendOnly() bool { return s.file.AppendOnly() }

// OutputPath is the sink's file or directory.
func (s *sink) OutputPath() string { return s.file.Path }

// Open creates the run's file, the nth INSERT's of the script. With
// checkpoints it is exactly once: its part files become visible at
// checkpoints. A restored run continues from the sink's state in the
// checkpoint, committing what the checkpoint covers if the crash came
// before the commit. The part files of this INSERT belong to the query
// (fileSink.CreateOwned): no other query's output, nor another INSERT's, is
// deleted or resumed over.
func (s *sink) Open(_ context.Context, run *connector.SinkRun) (writer.ResultWriter, error) {
	if cp := run.Checkpoint; cp != nil {
		if s.file.Key != nil {
			return s.file.CreateUpsertCommitting(run.Location, cp.Restore, run.Nth)
		}
		return s.file.CreateOwned(run.Location, cp.Restore, sinkOwner{Query: cp.Query, Checkpoint: cp.Path}, run.Nth)
	}
	return s.file.CreateNth(run.Location, run.Nth)
}
