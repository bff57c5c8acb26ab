package formats

import (
	"strings"
	"time"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// KeyMonitorInterval is the filesystem source's 'source.monitor-interval',
// read with the format options (Read) since a table's options are read in
// one pass, in the order written.
const KeyMonitorInterval = "source.monitor-interval"

// Settings are what a table's options say about the format it reads.
type Settings struct {
	CSV     format.CSVOptions
	JSON    format.JSONOptions
	Idle    time.Duration // 'scan.watermark.idle-timeout'
	Monitor time.Duration // 'source.monitor-interval'; 0 when not set
}

// Read reads the values of the table's format options, checked by the
// connector, in the order written; the first bad one is the error.
func Read(t *catalog.Table) (Settings, error) {
	f := Settings{CSV: format.CSVOptions{FieldDelimiter: ',', QuoteChar: '"', ArrayElementDelimiter: ";"}}
	var ignore, failMissing *sql.Option
	for _, o := range t.Options {
		var err error
		switch o.Key {
		case connector.KeyIdleTimeout:
			f.Idle, err = connector.Duration(o)
		case KeyMonitorInterval:
			if f.Monitor, err = connector.Duration(o); err == nil && f.Monitor <= 0 {
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a positive duration like '1 s' or '500 ms', got '%s'", o.Key, o.Value)
			}
		case "csv.field-delimiter":
			f.CSV.FieldDelimiter, err = connector.SingleChar(o)
		case "csv.quote-character":
			f.CSV.QuoteChar, err = connector.SingleChar(o)
		case "csv.ignore-parse-errors":
			f.CSV.IgnoreParseErrors, err = connector.Bool(o)
		case "csv.allow-comments":
			f.CSV.AllowComments, err = connector.Bool(o)
		case "csv.ignore-first-line":
			f.CSV.IgnoreFirstLine, err = connector.Bool(o)
		case "csv.null-literal":
			f.CSV.NullLiteral = o.Value
		case "csv.array-element-delimiter":
			if f.CSV.ArrayElementDelimiter = o.Value; o.Value == "" {
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must not be empty", o.Key)
			}
		case "json.ignore-parse-errors":
			f.JSON.IgnoreParseErrors, err = connector.Bool(o)
			ignore = &o
		case "json.fail-on-missing-field":
			f.JSON.FailOnMissingField, err = connector.Bool(o)
			failMissing = &o
		case "json.timestamp-format.standard":
			f.JSON.TimestampStandard, err = timestampStandard(o)
		}
		if err != nil {
			return f, err
		}
	}
	if f.JSON.IgnoreParseErrors && f.JSON.FailOnMissingField {
		// Flink: "fail-on-missing-field and ignore-parse-errors shouldn't both be true."
		at := failMissing.At
		if ignore.At.Offset > at.Offset {
			at = ignore.At
		}
		return f, sql.Errorf(sql.ErrInvalid, at, "options 'json.fail-on-missing-field' and 'json.ignore-parse-errors' cannot both be true")
	}
	return f, nil
}

func timestampStandard(o sql.Option) (format.TimestampStandard, error) {
	switch strings.ToUpper(o.Value) {
	case "SQL":
		return format.TimestampSQL, nil
	case "ISO-8601":
		return format.TimestampISO8601, nil
	}
	return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be 'SQL' or 'ISO-8601', got '%s'", o.Key, o.Value)
}

// Stream reads the 'format' option of a table read from one stream (stdin,
// an io.Reader); who names the table in the error.
func Stream(t *catalog.Table, at sql.Pos, who string) (sql.Option, error) {
	format, ok := t.Options.Lookup(connector.KeyFormat)
	if !ok {
		return format, sql.Errorf(sql.ErrInvalid, at, "%s needs a 'format' option (%s)", who, strings.Join(connector.ReadFormats(), " or "))
	}
	if err := CheckRead(format); err != nil {
		return format, err
	}
	return format, nil
}

// CheckRead refuses a format no source reads.
func CheckRead(format sql.Option) error {
	readable := connector.ReadFormats()
	if !connector.Contains(readable, format.Value) {
		return sql.Errorf(sql.ErrUnsupported, format.At, "format '%s' is not supported yet (supported: %s)%s",
			format.Value, strings.Join(readable, ", "), sql.DidYouMean(format.Value, readable))
	}
	return nil
}
