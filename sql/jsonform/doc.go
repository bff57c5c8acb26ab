// Package jsonform reads the clauses of Flink's JSON functions, which have
// a grammar of their own (RETURNING type, NULL|ERROR|DEFAULT x ON EMPTY,
// WITH CONDITIONAL ARRAY WRAPPER, KEY k VALUE v, ABSENT ON NULL,
// x IS [NOT] JSON OBJECT), from the tokens of a call. Package sql's
// rewriter hands it a call's tokens and applies the edits it returns, so
// that TiDB's parser sees only the expressions; sql keeps the clauses on
// the call it lifts. It knows no SQL beyond these words.
package jsonform
