package formats

import "github.com/wsql/wsql/exec/connector"

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
	}})
}
