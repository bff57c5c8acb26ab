package planner

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
)

// Tables a Go program registers carry their source or sink in
// catalog.Table.Attached instead of a 'connector' option: rows the program
// pushes (exec.PushSource), an array.RecordReader (exec.RecordReaderSource),
// an io.Reader in a format (exec.ReaderInput), or a callback receiving
// results (exec.CallbackSink).

// planAttachedSource plans the read of a table registered from Go.
func planAttachedSource(t *catalog.Table, opts Options) (exec.Source, error) {
	known := []string{"scan.watermark.idle-timeout", optMaxFuture}
	var src exec.Source
	var file *exec.FileSource
	switch a := t.Attached.(type) {
	case *exec.PushSource:
		src = &exec.MakerSource{Maker: a}
	case *exec.RecordReaderSource:
		src = &exec.MakerSource{Maker: a}
	case *exec.ReaderInput:
		format, err := streamFormat(t, t.At, "table "+t.Name+" reads an io.Reader and")
		if err != nil {
			return nil, err
		}
		known = append(known, "format")
		known = append(known, formatOptions[format.Value]...)
		file = &exec.FileSource{Input: a, Format: format.Value, MaxRecordBytes: opts.MaxRecordBytes}
		file.BadRowsPath = opts.BadRowsPath
		src = file
	case *exec.CallbackSink:
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s is a sink registered from Go: INSERT INTO it, it cannot be read", t.Name)
	default:
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s has a source wsql does not know (%T)", t.Name, t.Attached)
	}
	for _, o := range t.Options {
		if !contains(known, o.Key) {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for a table registered from Go%s", o.Key, catalog.DidYouMean(o.Key, known))
		}
	}
	f, err := readFormatOptions(t)
	if err != nil {
		return nil, err
	}
	spec := src.Spec()
	if spec.MaxFuture, err = maxFutureOption(t); err != nil {
		return nil, err
	}
	if spec.MaxFuture != nil {
		// rows beyond the bound go to the bad-rows file, whatever the source
		spec.BadRowsPath = opts.BadRowsPath
	}
	spec.Schema, spec.BatchSize, spec.IdleTimeout = SourceSchema(t), opts.BatchSize, f.idle
	spec.SkipBadRows = f.csv.IgnoreParseErrors
	if file != nil {
		file.CSV, file.JSON = f.csv, f.json
		spec.BadRowText = badRowText(file.Format, f)
	}
	return src, nil
}

// checkSourceWatermark refuses SOURCE_WATERMARK() on a table whose source
// supplies no watermarks.
func checkSourceWatermark(t *catalog.Table) error {
	if t.Watermark == nil || !t.Watermark.Source {
		return nil
	}
	if _, ok := t.Attached.(*exec.PushSource); ok {
		return nil
	}
	return sql.Errorf(sql.ErrInvalid, t.Watermark.Expr.Pos(), "SOURCE_WATERMARK() needs a source that supplies watermarks: a table whose rows a Go program pushes (Engine.CreatePushTable)")
}

// planAttachedSink plans an INSERT into a table registered from Go.
func planAttachedSink(t *catalog.Table) (*Sink, error) {
	cb, ok := t.Attached.(*exec.CallbackSink)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s is a source registered from Go and cannot be written to", t.Name)
	}
	return &Sink{Table: t, Connector: "go", Callback: cb}, nil
}
