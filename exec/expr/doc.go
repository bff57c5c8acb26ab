// Package expr holds the expression kernels: compiled scalar expressions
// (Expr) evaluated a whole batch at a time over Arrow buffers, one file per
// family (arithmetic, comparison, logic, CASE and COALESCE, CAST, strings,
// LIKE, math, time, TO_TIMESTAMP and TO_TIMESTAMP_LTZ), constant folding
// (Fold), and the row selection (take) the filter and the conditional
// forms share.
//
// The planner type-checks SQL expressions and builds these; exec's computed
// columns, filter and projection evaluate them. A kernel reads its
// operands' buffers directly and writes its result's, so the per-row work
// is a loop over plain slices, never an interface call. CAST to STRING
// writes values as the result writers do (exec/format), so a value prints
// the same either way.
package expr
