// Package setting is the table of wsql's configuration keys, declared once
// the way Flink declares its ConfigOptions: each key's type, default, scope
// (SET in a session, a database/sql data source name, or both), one line of
// description and the check of its value. SET and RESET, `SET;`, the
// driver's data source name, "did you mean", shell completion and the docs
// all read this table, so a new setting is one entry here plus the code
// that reads its value.
package setting
