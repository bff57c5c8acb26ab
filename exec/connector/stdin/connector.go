package stdin

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/sql"
)

// Name is the connector's identifier.
const Name = "stdin"

var options = []connector.Option{
	connector.ConnectorOption,
	{Key: connector.KeyFormat, Type: "csv | json | debezium-json", Required: true, Scope: connector.Source, Description: "the format of the input"},
	connector.MaxFutureOption,
}

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 20, Options: options, NewSource: planSource})
}

// planSource reads the table from standard input.
func planSource(t *catalog.Table, conn sql.Option, env *connector.Env) (exec.Source, error) {
	format, err := formats.Stream(t, conn.At, "table "+t.Name)
	if err != nil {
		return nil, err
	}
	known := append(connector.Keys(options, connector.Source), connector.FormatOptionKeys(format.Value)...)
	for _, o := range t.Options {
		if !connector.Contains(known, o.Key) {
			return nil, connector.UnsupportedOption(o, Name, known)
		}
	}
	if env.Stdin == nil && env.Run { // a script run later may have it
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s reads standard input, which is not available here: give the SQL with -e or run FILE.sql and pipe the data in", t.Name)
	}
	src, _, err := textsource.Plan(t, format.Value, env)
	if err != nil {
		return nil, err
	}
	src.Stream, src.StreamName = env.Stdin, Name
	return src, nil
}
