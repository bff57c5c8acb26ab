package gotable

import (
	"context"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// Name is the connector's identifier; no table names it in a 'connector'
// option: the attachment does.
const Name = "go"

// options are the WITH keys of a table registered from Go; one read from
// an io.Reader also takes 'format' and the format's keys.
var options = []connector.Option{
	connector.IdleTimeoutOption,
	connector.MaxFutureOption,
	{Key: connector.KeyFormat, Type: "csv | json", Scope: connector.Source, Description: "the format of an io.Reader's input"},
}

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: connector.AttachedRank, Options: options, NewSource: planSource, NewSink: planSink})
}

// Attachment is what a Go program attached a table to.
type Attachment interface {
	catalog.Attachment
	// source is the attachment's read, nil for a sink; format is the
	// table's 'format' option when the attachment reads text.
	source(t *catalog.Table, env *connector.Env) (src exec.Source, file *textsource.Source, known []string, err error)
}

// base is what every attachment shares.
type base struct{}

func (base) Connector() string        { return Name }
func (base) SuppliesWatermarks() bool { return false }
func (base) Release()                 {}

// Push is a table whose rows the program pushes.
type Push struct {
	base
	Source *PushSource
}

// SuppliesWatermarks is true: the program states watermarks and idleness.
func (p *Push) SuppliesWatermarks() bool { return true }

// Release drops the rows still queued.
func (p *Push) Release() { p.Source.Release() }

func (p *Push) source(*catalog.Table, *connector.Env) (exec.Source, *textsource.Source, []string, error) {
	return &exec.MakerSource{Maker: p.Source}, nil, nil, nil
}

// Records is a table over an array.RecordReader, read once.
type Records struct {
	base
	Source *RecordReaderSource
}

func (r *Records) source(*catalog.Table, *connector.Env) (exec.Source, *textsource.Source, []string, error) {
	return &exec.MakerSource{Maker: r.Source}, nil, nil, nil
}

// Reader is a table over an io.Reader in a format, read once.
type Reader struct {
	base
	Input *textsource.ReaderInput
}

func (r *Reader) source(t *catalog.Table, env *connector.Env) (exec.Source, *textsource.Source, []string, error) {
	format, err := formats.Stream(t, t.At, "table "+t.Name+" reads an io.Reader and")
	if err != nil {
		return nil, nil, nil, err
	}
	file := &textsource.Source{Input: r.Input, Format: format.Value, MaxRecordBytes: env.MaxRecordBytes}
	file.BadRowsPath = env.BadRowsPath
	return file, file, append([]string{connector.KeyFormat}, connector.FormatOptionKeys(format.Value)...), nil
}

// Callback is a sink table whose results a program's function receives.
type Callback struct {
	base
	Sink *CallbackSink
}

func (c *Callback) source(t *catalog.Table, _ *connector.Env) (exec.Source, *textsource.Source, []string, error) {
	return nil, nil, nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s is a sink registered from Go: INSERT INTO it, it cannot be read", t.Name)
}

// planSource plans the read of a table registered from Go.
func planSource(t *catalog.Table, _ sql.Option, env *connector.Env) (exec.Source, error) {
	a, ok := t.Attached.(Attachment)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s has a source wsql does not know (%T)", t.Name, t.Attached)
	}
	src, file, more, err := a.source(t, env)
	if err != nil {
		return nil, err
	}
	known := append([]string{connector.KeyIdleTimeout, connector.KeyMaxFuture}, more...)
	for _, o := range t.Options {
		if !connector.Contains(known, o.Key) {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for a table registered from Go%s", o.Key, sql.DidYouMean(o.Key, known))
		}
	}
	f, err := formats.Read(t)
	if err != nil {
		return nil, err
	}
	spec := src.Spec()
	if spec.MaxFuture, err = connector.MaxFuture(t); err != nil {
		return nil, err
	}
	if spec.MaxFuture != nil {
		// rows beyond the bound go to the bad-rows file, whatever the source
		spec.BadRowsPath = env.BadRowsPath
	}
	spec.Schema, spec.BatchSize, spec.IdleTimeout = connector.SourceSchema(t), env.BatchSize, f.Idle
	spec.SkipBadRows = f.CSV.IgnoreParseErrors
	if file != nil {
		if file.Decoding, err = connector.FormatDecoding(file.Format, t); err != nil {
			return nil, err
		}
		if file.Decoding != nil {
			spec.BadRowText = file.Decoding.AppendRow
		}
	}
	return src, nil
}

// sink is an INSERT into a Callback table.
type sink struct {
	cb    *CallbackSink
	table *catalog.Table
	cols  []catalog.Column
}

// planSink plans an INSERT into a table registered from Go.
func planSink(t *catalog.Table, _ sql.Option) (connector.TableSink, error) {
	cb, ok := t.Attached.(*Callback)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s is a source registered from Go and cannot be written to", t.Name)
	}
	return &sink{cb: cb.Sink}, nil
}

func (s *sink) Bind(t *catalog.Table, cols []catalog.Column) { s.table, s.cols = t, cols }

func (s *sink) AppendOnly() bool { return false }

// Open gives the callback the table's columns, every field nullable.
func (s *sink) Open(ctx context.Context, _ *connector.SinkRun) (writer.ResultWriter, error) {
	schema, columns := connector.TableColumns(s.table, s.cols, false)
	return s.cb.Writer(ctx, schema, columns), nil
}
