package nexmark

import "github.com/wsql/wsql/exec/connector"

// Name is the connector's identifier.
const Name = "nexmark"

// options is the schema of the 'nexmark' connector.
var options = []connector.Option{
	connector.ConnectorOption,
	{Key: "nexmark.table", Type: "person | auction | bid", Required: true, Scope: connector.Source, Description: "which of the benchmark's tables"},
	{Key: "events.num", Type: "int", Scope: connector.Source, Description: "events of all three kinds; unbounded when not set"},
	{Key: "events.rate", Type: "int", Default: "10000", Scope: connector.Source, Description: "events per second of event time"},
	{Key: "event.time.start", Type: "timestamp", Default: "2024-01-01 00:00:00", Scope: connector.Source, Description: "event time of the first event"},
	{Key: "seed", Type: "int", Default: "0", Scope: connector.Source, Description: "seed of the random values"},
}

var nexmarkOptions = connector.Keys(options, connector.Both)

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 40, Options: options, NewSource: planSource})
}
