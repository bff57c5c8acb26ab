// Package predicate holds the kernels of Flink's string predicates that
// exec/expr does not: SIMILAR TO (a SQL regular expression, compiled once
// per query) and IS_ALPHA, IS_DIGIT, IS_DECIMAL. They read a STRING column
// through exec/expr's helpers and write a BOOLEAN column, a batch at a
// time.
package predicate
