package formats

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
)

// JSON is the 'json' format: JSON lines, read and written.
const JSON = "json"

func init() {
	connector.RegisterFormat(&connector.Format{Name: JSON, Rank: 20, Reads: true, Writes: true, Options: []connector.Option{
		{Key: "json.ignore-parse-errors", Type: "bool", Default: "false", Scope: connector.Both, Description: "skip bad rows instead of failing"},
		{Key: "json.fail-on-missing-field", Type: "bool", Default: "false", Scope: connector.Both, Description: "a row without a field of the table is a bad row"},
		{Key: "json.timestamp-format.standard", Type: "SQL | ISO-8601", Default: "SQL", Scope: connector.Both, Description: "how timestamps are written"},
	}, Decoding: jsonDecoding, Writing: jsonWriting})
}

func jsonDecoding(t *catalog.Table) (format.Decoding, error) {
	if err := jsonMapKeys(t); err != nil {
		return nil, err
	}
	s, err := Read(t)
	return format.JSONDecoding{Options: s.JSON}, err
}

func jsonWriting(t *catalog.Table) (writer.Writing, error) {
	if err := jsonMapKeys(t); err != nil {
		return nil, err
	}
	s, err := Read(t)
	return writer.JSONWriting{Standard: s.JSON.TimestampStandard}, err
}
