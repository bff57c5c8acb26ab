package function

import (
	"github.com/wsql/wsql/windowop"
)

// init adds the family at its place in the registry.
func init() { addFamily(500, aggregateFunctions) }

// aggregateFunctions are the aggregates of a window's rows. Result types
// are windowop's (Flink's).
var aggregateFunctions = []Function{
	aggregate("COUNT", windowop.Count, AnyArg, "BIGINT NOT NULL", "`COUNT(*)`: the rows; `COUNT(x)`: the rows where x is not NULL"),
	aggregate("SUM", windowop.Sum, NumericArg, "the type of x; DECIMAL(p, s) gives DECIMAL(38, s)", "the sum"),
	aggregate("AVG", windowop.Avg, NumericArg, "the type of x; DECIMAL(p, s) gives DECIMAL(38, max(6, s))", "the average, in the argument's type"),
	aggregate("MIN", windowop.Min, ComparableArg, "the type of x", "the smallest value"),
	aggregate("MAX", windowop.Max, ComparableArg, "the type of x", "the largest value"),
	aggregate("FIRST_VALUE", windowop.FirstValue, ComparableArg, "the type of x", "the value of the first row"),
	aggregate("LAST_VALUE", windowop.LastValue, ComparableArg, "the type of x", "the value of the last row"),
	aggregate("STDDEV_POP", windowop.StddevPop, NumericArg, "DOUBLE", "the population standard deviation"),
	withAliases(aggregate("STDDEV_SAMP", windowop.StddevSamp, NumericArg, "DOUBLE", "the sample standard deviation; NULL below two values"), "STDDEV"),
	aggregate("VAR_POP", windowop.VarPop, NumericArg, "DOUBLE", "the population variance"),
	withAliases(aggregate("VAR_SAMP", windowop.VarSamp, NumericArg, "DOUBLE", "the sample variance; NULL below two values"), "VARIANCE"),
	{Name: "LISTAGG", Kind: AggregateFunction, Description: "the values joined by a separator (default `,`)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: StringArg.Param}, {Name: "sep", Type: argSeparator, Optional: true}}, Result: "STRING"}},
		Aggregate:  &AggregateKernel{Kind: windowop.ListAgg, Arg: StringArg}},

	// Flink's, not run yet
	{Name: "COLLECT", Kind: AggregateFunction, Description: "the multiset of the values",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: AnyArg.Param}}, Result: "MULTISET"}}},
}

// argSeparator is LISTAGG's separator, a string literal.
var argSeparator = ArgType{Name: "STRING literal", Sample: "';'"}

// aggregate is an aggregate of one argument of class arg.
func aggregate(name string, kind windowop.AggKind, arg ArgClass, result, description string) Function {
	return Function{Name: name, Kind: AggregateFunction, Description: description,
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: arg.Param}}, Result: result}},
		Aggregate:  &AggregateKernel{Kind: kind, Arg: arg}}
}

// withAliases is f also named aliases (Flink's STDDEV is STDDEV_SAMP).
func withAliases(f Function, aliases ...string) Function {
	f.Aliases = aliases
	return f
}
