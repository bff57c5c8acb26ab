package planner

import (
	"github.com/wsql/wsql/windowop"
)

// aggregateFunctions are the aggregates of a window's rows. Result types
// are windowop's (Flink's).
var aggregateFunctions = []Function{
	aggregate("COUNT", windowop.Count, anyArg, "BIGINT NOT NULL", "`COUNT(*)`: the rows; `COUNT(x)`: the rows where x is not NULL"),
	aggregate("SUM", windowop.Sum, numericArg, "the type of x; DECIMAL(p, s) gives DECIMAL(38, s)", "the sum"),
	aggregate("AVG", windowop.Avg, numericArg, "the type of x; DECIMAL(p, s) gives DECIMAL(38, max(6, s))", "the average, in the argument's type"),
	aggregate("MIN", windowop.Min, comparableArg, "the type of x", "the smallest value"),
	aggregate("MAX", windowop.Max, comparableArg, "the type of x", "the largest value"),
	aggregate("FIRST_VALUE", windowop.FirstValue, comparableArg, "the type of x", "the value of the first row"),
	aggregate("LAST_VALUE", windowop.LastValue, comparableArg, "the type of x", "the value of the last row"),
	aggregate("STDDEV_POP", windowop.StddevPop, numericArg, "DOUBLE", "the population standard deviation"),
	withAliases(aggregate("STDDEV_SAMP", windowop.StddevSamp, numericArg, "DOUBLE", "the sample standard deviation; NULL below two values"), "STDDEV"),
	aggregate("VAR_POP", windowop.VarPop, numericArg, "DOUBLE", "the population variance"),
	withAliases(aggregate("VAR_SAMP", windowop.VarSamp, numericArg, "DOUBLE", "the sample variance; NULL below two values"), "VARIANCE"),
	{Name: "LISTAGG", Kind: AggregateFunction, Description: "the values joined by a separator (default `,`)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: stringArg.param}, {Name: "sep", Type: argSeparator, Optional: true}}, Result: "STRING"}},
		aggregate:  &aggregateKernel{kind: windowop.ListAgg, arg: stringArg}},

	// Flink's, not run yet
	{Name: "COLLECT", Kind: AggregateFunction, Description: "the multiset of the values",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: anyArg.param}}, Result: "MULTISET"}}},
}

// argSeparator is LISTAGG's separator, a string literal.
var argSeparator = argType{name: "STRING literal", sample: "';'"}

// aggregate is an aggregate of one argument of class arg.
func aggregate(name string, kind windowop.AggKind, arg argClass, result, description string) Function {
	return Function{Name: name, Kind: AggregateFunction, Description: description,
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: arg.param}}, Result: result}},
		aggregate:  &aggregateKernel{kind: kind, arg: arg}}
}

// withAliases is f also named aliases (Flink's STDDEV is STDDEV_SAMP).
func withAliases(f Function, aliases ...string) Function {
	f.Aliases = aliases
	return f
}
