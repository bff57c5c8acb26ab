// Package materialize applies a changelog (+I, -U, +U, -D rows) to a
// materialised table, as Flink's SQL client does in its table result mode:
// the shell's live table and the final table of 'table' mode are drawn from
// a View.
package materialize
