// Package sqlfmt prints wsql's syntax tree (package sql) back as
// canonical Flink SQL: EXPLAIN, SHOW CREATE, DESCRIBE and error messages
// print statements and expressions through it, and the parser's tests
// check that what it prints parses back into the same tree.
package sqlfmt
