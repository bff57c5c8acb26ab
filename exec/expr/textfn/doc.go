// Package textfn holds the kernels of Flink's string, regular-expression
// and hash functions, column at a time over Arrow arrays: a constant
// pattern is compiled once per query (exec/expr/regex), and results are
// appended to the output builder through reused scratch buffers, so no
// value is allocated per row. Characters are Unicode code points, as
// Flink's string functions count them.
package textfn
