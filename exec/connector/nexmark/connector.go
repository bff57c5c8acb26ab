package nexmark

import "github.com/wsql/wsql/exec/connector"

// Name is the connector's identifier.
const Name = "nexmark"

// options is the schema of the 'nexmark' connector.
var options = []connector.Option{
	connector.ConnectorOption,
	{Key: "nexmark.table", Type: "person | auction | bid", Scope: connector.Source, Description: "one of the benchmark's tables; without it, the whole event stream as Flink's nexmark declares it"},
	{Key: "events.num", Type: "int", Scope: connector.Source, Description: "events of all three kinds; unbounded when not set (or 0 for the event stream, as Flink)"},
	{Key: "events.rate", Type: "int", Default: "10000", Scope: connector.Source, Description: "events per second of event time"},
	{Key: "first-event.rate", Type: "int", Default: "10000", Scope: connector.Source, Description: "events per second of event time (Flink's name of events.rate)"},
	{Key: "next-event.rate", Type: "int", Default: "10000", Scope: connector.Source, Description: "must equal first-event.rate: rate shapes are not supported yet"},
	{Key: "person.proportion", Type: "int", Default: "1", Scope: connector.Source, Description: "persons in each cycle of events"},
	{Key: "auction.proportion", Type: "int", Default: "3", Scope: connector.Source, Description: "auctions in each cycle of events, after the persons"},
	{Key: "bid.proportion", Type: "int", Default: "46", Scope: connector.Source, Description: "bids in each cycle of events, after the auctions"},
	{Key: "event.time.start", Type: "timestamp", Default: "2024-01-01 00:00:00", Scope: connector.Source, Description: "event time of the first event"},
	{Key: "seed", Type: "int", Default: "0", Scope: connector.Source, Description: "seed of the random values"},
}

var nexmarkOptions = connector.Keys(options, connector.Both)

// flinkOnlyOptions are the options of Flink's nexmark connector
// (NexmarkSourceOptions) wsql does not implement: refused by name rather
// than ignored.
var flinkOnlyOptions = []string{
	"rate.shape", "rate.period", "rate.limited",
	"person.avg-size", "auction.avg-size", "bid.avg-size",
	"bid.hot-ratio.auctions", "bid.hot-ratio.bidders", "auction.hot-ratio.sellers",
}

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 40, Options: options, NewSource: planSource})
}
