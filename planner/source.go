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

// filesystemOptions are the WITH keys of the filesystem connector itself;
// formatOptions those of each format, which a table of another format
// must not carry.
var (
	filesystemOptions = []string{"connector", "path", "format", "scan.watermark.idle-timeout", "scan.watermark.max-future", "source.monitor-interval"}
	formatOptions     = map[string][]string{
		"csv": {"csv.field-delimiter", "csv.quote-character", "csv.ignore-parse-errors",
			"csv.null-literal", "csv.allow-comments", "csv.ignore-first-line"},
		"json": {"json.ignore-parse-errors", "json.fail-on-missing-field", "json.timestamp-format.standard"},
	}
	fileFormats = []string{"csv", "json"}
)

// planSource translates a table's WITH options into a source reading the
// table's physical columns. A physical rowtime column is declared NOT NULL
// to the decoder: a row without event time is a bad row (docs/semantics.md, "Watermarks"). A
// directory path is listed now, one split per file, so EXPLAIN shows what a
// run reads; a path that does not exist yet is left for the run to report.
func planSource(t *catalog.Table, opts Options) (exec.Source, error) {
	src, err := planTableSource(t, opts)
	if err != nil {
		return nil, err
	}
	spec := src.Spec()
	spec.Table = t.Name
	if t.Watermark != nil && spec.BadRowsPath == "" {
		// rows outside the event times wsql accepts go to the bad-rows
		// file, whatever the source
		spec.BadRowsPath = opts.BadRowsPath
	}
	return src, nil
}

// planTableSource plans the source of planSource by the table's connector.
func planTableSource(t *catalog.Table, opts Options) (exec.Source, error) {
	if err := checkSourceWatermark(t); err != nil {
		return nil, err
	}
	if t.Attached != nil {
		return planAttachedSource(t, opts)
	}
	conn, ok := t.Options.Lookup("connector")
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s has no 'connector' option", t.Name)
	}
	switch conn.Value {
	case "stdin":
		return planStdinSource(t, conn, opts)
	case "datagen":
		return planDatagenSource(t, opts)
	case "nexmark":
		return planNexmarkSource(t, conn, opts)
	case "filesystem":
	default:
		return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "connector '%s' is not supported yet (supported: filesystem, stdin, datagen, nexmark)%s",
			conn.Value, catalog.DidYouMean(conn.Value, []string{"filesystem", "stdin", "datagen", "nexmark"}))
	}
	path, format, err := checkFilesystemOptions(t, conn)
	if err != nil {
		return nil, err
	}
	splits, err := exec.ListSplits(path.Value)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, sql.Errorf(sql.ErrInvalid, path.At, "cannot list the files of path '%s': %v", path.Value, err)
	}
	f, err := readFormatOptions(t)
	if err != nil {
		return nil, err
	}
	mf, err := maxFutureOption(t)
	if err != nil {
		return nil, err
	}
	return &exec.FileSource{
		SourceSpec: exec.SourceSpec{
			MaxFuture:   mf,
			Schema:      SourceSchema(t),
			BatchSize:   opts.BatchSize,
			IdleTimeout: f.idle,
			BadRowsPath: opts.BadRowsPath,
			SkipBadRows: f.csv.IgnoreParseErrors,
			BadRowText:  badRowText(format.Value, f),
		},
		Path:           path.Value,
		Splits:         splits,
		Format:         format.Value,
		CSV:            f.csv,
		JSON:           f.json,
		MaxRecordBytes: opts.MaxRecordBytes,
		// 'source.monitor-interval': unbounded, following the files as they
		// grow and the directory as files appear (exec.FileSource).
		MonitorInterval: f.monitor,
	}, nil
}

// planStdinSource reads the table from standard input (Flink has no such
// connector; wsql's 'stdin' is the shell pipe: tail -f app.log | wsql -e
// "..."): one split, unbounded until the input ends, in csv or json.
func planStdinSource(t *catalog.Table, conn sql.Option, opts Options) (exec.Source, error) {
	format, err := streamFormat(t, conn.At, "table "+t.Name)
	if err != nil {
		return nil, err
	}
	known := append([]string{"connector", "format", optMaxFuture}, formatOptions[format.Value]...)
	for _, o := range t.Options {
		if !contains(known, o.Key) {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'stdin'%s", o.Key, catalog.DidYouMean(o.Key, known))
		}
	}
	if opts.Stdin == nil {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s reads standard input, which is not available here: give the SQL with -e or run FILE.sql and pipe the data in", t.Name)
	}
	f, err := readFormatOptions(t)
	if err != nil {
		return nil, err
	}
	mf, err := maxFutureOption(t)
	if err != nil {
		return nil, err
	}
	return &exec.FileSource{
		SourceSpec: exec.SourceSpec{
			MaxFuture:   mf,
			Schema:      SourceSchema(t),
			BatchSize:   opts.BatchSize,
			BadRowsPath: opts.BadRowsPath,
			SkipBadRows: f.csv.IgnoreParseErrors,
			BadRowText:  badRowText(format.Value, f),
		},
		Stream:         opts.Stdin,
		StreamName:     "stdin",
		Format:         format.Value,
		CSV:            f.csv,
		JSON:           f.json,
		MaxRecordBytes: opts.MaxRecordBytes,
	}, nil
}

// badRowText is how a row of the format is written to the bad-rows file.
func badRowText(format string, f fileFormat) func([]byte, arrow.RecordBatch, int, int) []byte {
	if format == "json" {
		return exec.JSONRowText(f.json.TimestampStandard)
	}
	return nil
}

// streamFormat reads the 'format' option of a table read from one stream
// (stdin, an io.Reader); who names the table in the error.
func streamFormat(t *catalog.Table, at sql.Pos, who string) (sql.Option, error) {
	format, ok := t.Options.Lookup("format")
	if !ok {
		return format, sql.Errorf(sql.ErrInvalid, at, "%s needs a 'format' option (csv or json)", who)
	}
	if !contains(fileFormats, format.Value) {
		return format, sql.Errorf(sql.ErrUnsupported, format.At, "format '%s' is not supported yet (supported: %s)%s",
			format.Value, strings.Join(fileFormats, ", "), catalog.DidYouMean(format.Value, fileFormats))
	}
	return format, nil
}

// SourceSchema is the table's physical schema; a physical rowtime column
// is NOT NULL to the decoder: a row without event time is a bad row.
func SourceSchema(t *catalog.Table) *arrow.Schema {
	fields := append([]arrow.Field(nil), t.PhysicalSchema().Fields()...)
	if t.Watermark != nil {
		for i := range fields {
			if fields[i].Name == t.Watermark.Column {
				fields[i].Nullable = false
			}
		}
	}
	return arrow.NewSchema(fields, nil)
}

// checkFilesystemOptions checks the keys of a filesystem table, source or
// sink: each known, of the connector or of the table's format, and 'path'
// and 'format' present.
func checkFilesystemOptions(t *catalog.Table, conn sql.Option) (path, format sql.Option, err error) {
	format, hasFormat := t.Options.Lookup("format")
	known := append([]string(nil), filesystemOptions...)
	if hasFormat && formatOptions[format.Value] != nil {
		known = append(known, formatOptions[format.Value]...)
	} else {
		for _, f := range fileFormats {
			known = append(known, formatOptions[f]...)
		}
	}
	for _, o := range t.Options {
		if contains(known, o.Key) {
			continue
		}
		for _, f := range fileFormats {
			if contains(formatOptions[f], o.Key) {
				return path, format, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' belongs to format '%s', but table %s has format '%s'", o.Key, f, t.Name, format.Value)
			}
		}
		return path, format, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'filesystem'%s",
			o.Key, catalog.DidYouMean(o.Key, known))
	}
	path, ok := t.Options.Lookup("path")
	if !ok || path.Value == "" {
		return path, format, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'path' option for connector 'filesystem'", t.Name)
	}
	if !hasFormat {
		return path, format, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'format' option (csv or json)", t.Name)
	}
	if !contains(fileFormats, format.Value) {
		return path, format, sql.Errorf(sql.ErrUnsupported, format.At, "format '%s' is not supported yet (supported: %s)%s",
			format.Value, strings.Join(fileFormats, ", "), catalog.DidYouMean(format.Value, fileFormats))
	}
	return path, format, nil
}

// fileFormat is what a filesystem table's options say about its format.
type fileFormat struct {
	csv     exec.CSVOptions
	json    exec.JSONOptions
	idle    time.Duration
	monitor time.Duration // 'source.monitor-interval'; 0 when not set
}

// readFormatOptions reads the values of checked options.
func readFormatOptions(t *catalog.Table) (fileFormat, error) {
	f := fileFormat{csv: exec.CSVOptions{FieldDelimiter: ',', QuoteChar: '"'}}
	var ignore, failMissing *sql.Option
	for _, o := range t.Options {
		var err error
		switch o.Key {
		case "scan.watermark.idle-timeout":
			f.idle, err = durationOption(o)
		case "source.monitor-interval":
			if f.monitor, err = durationOption(o); err == nil && f.monitor <= 0 {
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a positive duration like '1 s' or '500 ms', got '%s'", o.Key, o.Value)
			}
		case "csv.field-delimiter":
			f.csv.FieldDelimiter, err = singleChar(o)
		case "csv.quote-character":
			f.csv.QuoteChar, err = singleChar(o)
		case "csv.ignore-parse-errors":
			f.csv.IgnoreParseErrors, err = boolOption(o)
		case "csv.allow-comments":
			f.csv.AllowComments, err = boolOption(o)
		case "csv.ignore-first-line":
			f.csv.IgnoreFirstLine, err = boolOption(o)
		case "csv.null-literal":
			f.csv.NullLiteral = o.Value
		case "json.ignore-parse-errors":
			f.json.IgnoreParseErrors, err = boolOption(o)
			ignore = &o
		case "json.fail-on-missing-field":
			f.json.FailOnMissingField, err = boolOption(o)
			failMissing = &o
		case "json.timestamp-format.standard":
			f.json.TimestampStandard, err = timestampStandardOption(o)
		}
		if err != nil {
			return f, err
		}
	}
	if f.json.IgnoreParseErrors && f.json.FailOnMissingField {
		// Flink: "fail-on-missing-field and ignore-parse-errors shouldn't both be true."
		at := failMissing.At
		if ignore.At.Offset > at.Offset {
			at = ignore.At
		}
		return f, sql.Errorf(sql.ErrInvalid, at, "options 'json.fail-on-missing-field' and 'json.ignore-parse-errors' cannot both be true")
	}
	return f, nil
}

func timestampStandardOption(o sql.Option) (exec.TimestampStandard, error) {
	switch strings.ToUpper(o.Value) {
	case "SQL":
		return exec.TimestampSQL, nil
	case "ISO-8601":
		return exec.TimestampISO8601, nil
	}
	return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be 'SQL' or 'ISO-8601', got '%s'", o.Key, o.Value)
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
