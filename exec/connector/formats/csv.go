package formats

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// CSV is the 'csv' format: RFC 4180 text, read and written.
const CSV = "csv"

func init() {
	connector.RegisterFormat(&connector.Format{Name: CSV, Rank: 10, Reads: true, Writes: true, Options: []connector.Option{
		{Key: "csv.field-delimiter", Type: "char", Default: ",", Scope: connector.Both, Description: "the field delimiter (a sink writes only ',')"},
		{Key: "csv.quote-character", Type: "char", Default: `"`, Scope: connector.Both, Description: "the quote character (a sink writes only '\"')"},
		{Key: "csv.ignore-parse-errors", Type: "bool", Default: "false", Scope: connector.Both, Description: "skip bad rows instead of failing"},
		{Key: "csv.null-literal", Type: "string", Scope: connector.Both, Description: "the text read as NULL (a sink writes NULL as an empty field)"},
		{Key: "csv.allow-comments", Type: "bool", Default: "false", Scope: connector.Both, Description: "skip lines that start with '#'"},
		{Key: "csv.ignore-first-line", Type: "bool", Default: "false", Scope: connector.Both, Description: "skip the first line (a header)"},
		{Key: "csv.array-element-delimiter", Type: "string", Default: ";", Scope: connector.Both, Description: "the text between the elements of an ARRAY or the fields of a ROW"},
	}, Decoding: csvDecoding, Writing: csvWriting})
}

func csvDecoding(t *catalog.Table) (format.Decoding, error) {
	if err := csvNestedColumns(t); err != nil {
		return nil, err
	}
	s, err := Read(t)
	return format.CSVDecoding{Options: s.CSV}, err
}

// csvWriting refuses the csv options that change the written text unless
// they name the defaults, which is all the csv writer writes yet.
func csvWriting(t *catalog.Table) (writer.Writing, error) {
	if err := csvNestedColumns(t); err != nil {
		return nil, err
	}
	s, err := Read(t)
	if err != nil {
		return nil, err
	}
	for _, o := range t.Options {
		var unsupported bool
		switch o.Key {
		case "csv.field-delimiter":
			unsupported = s.CSV.FieldDelimiter != ','
		case "csv.quote-character":
			unsupported = s.CSV.QuoteChar != '"'
		case "csv.null-literal":
			unsupported = s.CSV.NullLiteral != ""
		}
		if unsupported {
			return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' = '%s' is not supported for writing yet: a csv sink writes ',' between fields, '\"' quotes and NULL as an empty field", o.Key, o.Value)
		}
	}
	return writer.CSVWriting{ElementDelimiter: s.CSV.ArrayElementDelimiter}, nil
}
