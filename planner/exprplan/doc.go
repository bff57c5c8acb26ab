// Package exprplan compiles SQL expressions into exec/expr kernels: name
// resolution through a Scope, Flink's type checks and common types,
// implicit casts, constant folding, function calls through the function
// registry (this package's Compiler is the function.Compiler their
// kernels compile with), value access, CAST with its lengths and
// precisions, and errors at the offending node. The planner calls it for
// every expression of a query: select items, WHERE, HAVING, keys,
// aggregate arguments, computed columns and VALUES rows.
package exprplan
