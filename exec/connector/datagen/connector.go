package datagen

import (
	"strings"

	"github.com/wsql/wsql/exec/connector"
)

// Name is the connector's identifier.
const Name = "datagen"

// fieldPrefix starts the per-column options, 'fields.<column>.<option>'.
const fieldPrefix = "fields.<col>."

// options is the schema of Flink's 'datagen' connector; 'seed' is wsql's
// (Flink's datagen is not reproducible).
var options = []connector.Option{
	connector.ConnectorOption,
	{Key: "number-of-rows", Type: "int", Scope: connector.Source, Description: "rows in all; unbounded when not set"},
	{Key: "rows-per-second", Type: "int", Default: "10000", Scope: connector.Source, Description: "pace of the read under the system clock; 0 for no limit"},
	{Key: "seed", Type: "int", Default: "0", Scope: connector.Source, Description: "seed of the random values"},
	{Key: fieldPrefix + "kind", Type: "random | sequence", Default: "random", Scope: connector.Source, Description: "how the column's values are made"},
	{Key: fieldPrefix + "min", Type: "number", Scope: connector.Source, Description: "least random value"},
	{Key: fieldPrefix + "max", Type: "number", Scope: connector.Source, Description: "largest random value"},
	{Key: fieldPrefix + "max-past", Type: "duration", Scope: connector.Source, Description: "random time values within this before now"},
	{Key: fieldPrefix + "length", Type: "int", Default: "100", Scope: connector.Source, Description: "length of a random string"},
	{Key: fieldPrefix + "start", Type: "int", Scope: connector.Source, Description: "first value of a sequence"},
	{Key: fieldPrefix + "end", Type: "int", Scope: connector.Source, Description: "last value of a sequence"},
}

// datagenOptions are the keys besides the per-field ones; datagenFieldOptions
// the per-field option names.
var datagenOptions, datagenFieldOptions = func() (top, field []string) {
	for _, o := range options {
		if f, ok := strings.CutPrefix(o.Key, fieldPrefix); ok {
			field = append(field, f)
		} else {
			top = append(top, o.Key)
		}
	}
	return top, field
}()

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 30, Options: options, NewSource: planSource})
}
