package function

import (
	"strings"

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
	aggregate("SINGLE_VALUE", windowop.SingleValue, ComparableArg, "the type of x", "x of the one row; NULL without rows; a second row fails the run (\"SingleValueAggFunction received more than one element.\"), as for a scalar subquery"),
	aggregate("STDDEV_POP", windowop.StddevPop, NumericArg, "DOUBLE", "the population standard deviation"),
	withAliases(aggregate("STDDEV_SAMP", windowop.StddevSamp, NumericArg, "DOUBLE", "the sample standard deviation; NULL below two values"), "STDDEV"),
	aggregate("VAR_POP", windowop.VarPop, NumericArg, "DOUBLE", "the population variance"),
	withAliases(aggregate("VAR_SAMP", windowop.VarSamp, NumericArg, "DOUBLE", "the sample variance; NULL below two values"), "VARIANCE"),
	{Name: "LISTAGG", Kind: AggregateFunction, Description: "the values joined by a separator (default `,`)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: StringArg.Param}, {Name: "sep", Type: argSeparator, Optional: true}}, Result: "STRING"}},
		Aggregate:  &AggregateKernel{Kind: windowop.ListAgg, Arg: StringArg}},

	{Name: "PERCENTILE", Kind: AggregateFunction,
		Description: "the continuous percentile at p (0.0 to 1.0), linearly interpolated, or at each p of an ARRAY; each row counts frequency times (rows whose frequency is NULL or not positive are skipped)",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: NumericArg.Param}, {Name: "p", Type: argPercentage},
			{Name: "frequency", Type: ArgInteger, Optional: true}}, Result: "DOUBLE; ARRAY<DOUBLE> for an ARRAY of percentages"}},
		Aggregate: &AggregateKernel{Kind: windowop.Percentile, Arg: NumericArg}},
	{Name: "ARRAY_AGG", Kind: AggregateFunction,
		Description: "the values in an ARRAY, in arrival order; NULL values kept unless IGNORE NULLS; NULL without rows",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ElementArg.Param}}, Result: "ARRAY<the type of x>",
			Written: "ARRAY_AGG([DISTINCT] x [RESPECT NULLS | IGNORE NULLS])"}},
		Aggregate: &AggregateKernel{Kind: windowop.ArrayAgg, Arg: ElementArg}},
	{Name: "COLLECT", Kind: AggregateFunction,
		Description: "the MULTISET of the non-NULL values, each with its number of rows, listed by first arrival; empty without values",
		Signatures:  []Signature{{Params: []Param{{Name: "x", Type: ElementArg.Param}}, Result: "MULTISET<the type of x> NOT NULL"}},
		Aggregate:   &AggregateKernel{Kind: windowop.Collect, Arg: ElementArg}},

	// Flink's, not run yet
	unsupportedAggregate("RANK", "the rank of the row in its partition, with gaps", "BIGINT", overOnly),
	unsupportedAggregate("DENSE_RANK", "the rank of the row in its partition, without gaps", "BIGINT", overOnly),
	unsupportedAggregate("ROW_NUMBER", "the number of the row in its partition", "BIGINT", overOnly),
	unsupportedAggregate("CUME_DIST", "the cumulative distribution of the row in its partition", "DOUBLE", overOnly),
	unsupportedAggregate("PERCENT_RANK", "the percentage rank of the row in its partition", "DOUBLE", overOnly),
	unsupportedAggregate("NTILE", "the bucket, 1 to n, of the row in its partition", "BIGINT", overOnly, "n"),
	unsupportedAggregate("LEAD", "x of the row offset rows after (default 1), or default", "the type of x", overOnly, "x", "[offset]", "[default]"),
	unsupportedAggregate("LAG", "x of the row offset rows before (default 1), or default", "the type of x", overOnly, "x", "[offset]", "[default]"),
	{Name: "GROUP_ID", Kind: AggregateFunction, Syntax: SyntaxGroupBy,
		Description: "0 for the first grouping set of its keys, 1 for the second listed with the same keys, and so on",
		Signatures:  []Signature{{Result: "BIGINT NOT NULL"}}},
	grouping("GROUPING"),
	grouping("GROUPING_ID"),
}

// grouping is GROUPING(x, ...) or GROUPING_ID(x, ...): per result row, a
// bit per argument, the first the highest, set where the row's grouping
// set does not group by it. The planner computes it from the grouping set
// (planner/grouping_sets.go), so it has no kernel.
func grouping(name string) Function {
	return Function{Name: name, Kind: AggregateFunction, Syntax: SyntaxGroupBy,
		Description: "the bit vector of which of the grouping expressions the row's grouping set does not group by (GROUPING SETS, ROLLUP, CUBE); 0 for a plain GROUP BY",
		Signatures:  []Signature{{Params: []Param{{Name: "x", Type: AnyArg.Param}}, Variadic: true, Result: "BIGINT NOT NULL"}}}
}

// Why the aggregates of Flink that wsql knows do not run.
const (
	overOnly = "it runs only in an OVER window, which wsql does not run yet"
)

// argPercentage is PERCENTILE's p, a numeric literal from 0.0 to 1.0, or
// an ARRAY[...] of them.
var argPercentage = ArgType{Name: "NUMERIC literal or ARRAY of them", Sample: "0.5"}

// unsupportedAggregate is an aggregate wsql knows but cannot run, and why.
// A parameter "[p]" is optional; "..." repeats the one before it.
func unsupportedAggregate(name, description, result, why string, params ...string) Function {
	sig := Signature{Result: result}
	for _, p := range params {
		switch {
		case p == "...":
			sig.Variadic = true
		case strings.HasPrefix(p, "["):
			sig.Params = append(sig.Params, Param{Name: strings.Trim(p, "[]"), Type: AnyArg.Param, Optional: true})
		default:
			sig.Params = append(sig.Params, Param{Name: p, Type: AnyArg.Param})
		}
	}
	return Function{Name: name, Kind: AggregateFunction, Description: description, Signatures: []Signature{sig}, Unsupported: why}
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
