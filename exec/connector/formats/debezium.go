package formats

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/debezium"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// DebeziumJSON is the 'debezium-json' format: Debezium's JSON envelope,
// read as an update stream and written from one (exec/format/debezium).
const DebeziumJSON = "debezium-json"

func init() {
	connector.RegisterFormat(&connector.Format{Name: DebeziumJSON, Rank: 25, Reads: true, Writes: true, Changelog: true, Options: []connector.Option{
		{Key: "debezium-json.ignore-parse-errors", Type: "bool", Default: "false", Scope: connector.Both, Description: "skip bad lines (and envelopes whose op or rows do not fit) instead of failing"},
		{Key: "debezium-json.schema-include", Type: "bool", Default: "false", Scope: connector.Source, Description: `each line is {"schema": ..., "payload": <envelope>}, as Kafka Connect writes with schemas enabled`},
		{Key: "debezium-json.timestamp-format.standard", Type: "SQL | ISO-8601", Default: "SQL", Scope: connector.Both, Description: "how timestamps are read and written"},
	}, Decoding: debeziumDecoding, Writing: debeziumWriting})
}

func debeziumDecoding(t *catalog.Table) (format.Decoding, error) {
	if err := jsonMapKeys(t); err != nil {
		return nil, err
	}
	if _, err := Read(t); err != nil {
		return nil, err
	}
	return readDebezium(t)
}

func debeziumWriting(t *catalog.Table) (writer.Writing, error) {
	if err := jsonMapKeys(t); err != nil {
		return nil, err
	}
	if _, err := Read(t); err != nil {
		return nil, err
	}
	d, err := readDebezium(t)
	if err != nil {
		return nil, err
	}
	if o, ok := t.Options.Lookup("debezium-json.schema-include"); ok && d.SchemaInclude {
		return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option 'debezium-json.schema-include' = 'true' is not supported for writing yet: a debezium-json sink writes the envelope without its schema")
	}
	return debezium.Writing{Standard: d.JSON.TimestampStandard}, nil
}

// readDebezium reads the debezium-json options, in the order written.
func readDebezium(t *catalog.Table) (debezium.Decoding, error) {
	var d debezium.Decoding
	for _, o := range t.Options {
		var err error
		switch o.Key {
		case "debezium-json.ignore-parse-errors":
			d.JSON.IgnoreParseErrors, err = connector.Bool(o)
		case "debezium-json.schema-include":
			d.SchemaInclude, err = connector.Bool(o)
		case "debezium-json.timestamp-format.standard":
			d.JSON.TimestampStandard, err = timestampStandard(o)
		}
		if err != nil {
			return d, err
		}
	}
	return d, nil
}
