package planner

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
)

// filesystemOptions are the WITH keys the filesystem connector understands.
var filesystemOptions = []string{
	"connector", "path", "format",
	"csv.field-delimiter", "csv.quote-character", "csv.ignore-parse-errors",
	"csv.null-literal", "csv.allow-comments", "csv.ignore-first-line",
	"scan.watermark.idle-timeout",
}

// planSource translates a table's WITH options into a source reading the
// table's physical columns. A physical rowtime column is declared NOT NULL
// to the decoder: a row without event time is a bad row (DESIGN §4). A
// directory path is listed now, one split per file, so EXPLAIN shows what a
// run reads; a path that does not exist yet is left for the run to report.
func planSource(t *catalog.Table, batchSize int) (*exec.FileSource, error) {
	conn, ok := t.Options.Lookup("connector")
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s has no 'connector' option", t.Name)
	}
	if conn.Value != "filesystem" {
		return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "connector '%s' is not supported yet (supported: filesystem)", conn.Value)
	}
	for _, o := range t.Options {
		if !contains(filesystemOptions, o.Key) {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'filesystem'%s",
				o.Key, catalog.DidYouMean(o.Key, filesystemOptions))
		}
	}
	path, ok := t.Options.Lookup("path")
	if !ok || path.Value == "" {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'path' option for connector 'filesystem'", t.Name)
	}
	format, ok := t.Options.Lookup("format")
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'format' option (csv)", t.Name)
	}
	if format.Value != "csv" {
		return nil, sql.Errorf(sql.ErrUnsupported, format.At, "format '%s' is not supported yet (supported: csv)", format.Value)
	}
	splits, err := exec.ListSplits(path.Value)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, sql.Errorf(sql.ErrInvalid, path.At, "cannot list the files of path '%s': %v", path.Value, err)
	}
	csv := exec.CSVOptions{FieldDelimiter: ',', QuoteChar: '"'}
	var idle time.Duration
	for _, o := range t.Options {
		var err error
		switch o.Key {
		case "scan.watermark.idle-timeout":
			idle, err = durationOption(o)
		case "csv.field-delimiter":
			csv.FieldDelimiter, err = singleChar(o)
		case "csv.quote-character":
			csv.QuoteChar, err = singleChar(o)
		case "csv.ignore-parse-errors":
			csv.IgnoreParseErrors, err = boolOption(o)
		case "csv.allow-comments":
			csv.AllowComments, err = boolOption(o)
		case "csv.ignore-first-line":
			csv.IgnoreFirstLine, err = boolOption(o)
		case "csv.null-literal":
			csv.NullLiteral = o.Value
		}
		if err != nil {
			return nil, err
		}
	}
	fields := append([]arrow.Field(nil), t.PhysicalSchema().Fields()...)
	if t.Watermark != nil {
		for i := range fields {
			if fields[i].Name == t.Watermark.Column {
				fields[i].Nullable = false
			}
		}
	}
	return &exec.FileSource{
		Path:        path.Value,
		Splits:      splits,
		Format:      format.Value,
		Schema:      arrow.NewSchema(fields, nil),
		CSV:         csv,
		BatchSize:   batchSize,
		IdleTimeout: idle,
	}, nil
}

// singleChar reads a one-character option; Flink also accepts the escapes
// '\t' and '\\' written out.
func singleChar(o sql.Option) (byte, error) {
	v := o.Value
	switch v {
	case `\t`:
		return '\t', nil
	case `\\`:
		return '\\', nil
	}
	if len(v) != 1 {
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a single character, got %s", o.Key, strconv.Quote(v))
	}
	return v[0], nil
}

func boolOption(o sql.Option) (bool, error) {
	switch strings.ToLower(o.Value) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be 'true' or 'false', got '%s'", o.Key, o.Value)
}

// durationOption reads a duration in Flink's syntax ('5 s', '1 min').
func durationOption(o sql.Option) (time.Duration, error) {
	d, err := parseDuration(o.Value)
	if err != nil {
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a duration like '5 s', '1 min' or '500 ms', got '%s': %v", o.Key, o.Value, err)
	}
	return d, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
