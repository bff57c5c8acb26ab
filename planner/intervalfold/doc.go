// Package intervalfold folds interval expressions into one constant.
// Intervals in wsql are constants: there are no interval columns, so an
// interval expression (INTERVAL '1' DAY * 3, INTERVAL '1' YEAR +
// INTERVAL '2' MONTH, -INTERVAL '5' SECOND) is folded into one
// sql.IntervalLiteral before it meets a time value, a comparison or a
// CAST, and written as Flink prints intervals (+1-02, +2 00:00:00.000).
package intervalfold
