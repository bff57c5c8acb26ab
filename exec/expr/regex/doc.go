// Package regex runs regular expressions with Java's semantics (Flink's
// functions use java.util.regex) and holds the REGEXP_* kernels.
//
// A pattern is compiled once per query. Patterns Go's regexp/syntax can
// parse run on this package's backtracking matcher, which follows
// Java's leftmost-first backtracking over a node program, with Java's
// meaning of `.`, `$` and `\b`, and reuses its capture slots across rows, so
// matching allocates nothing per row. A pattern without choice points
// (no alternation or loop, each repetition unable to give a rune back to
// what follows it, as id=(\d+)) runs as a straight program: one pass per
// search attempt, with no trail or undo. A pattern that picks a key's
// value out of a list of fields, (&|^)key=([^&]*), runs as a field scan: a
// byte search for the separator and key, then for the value's end.
// Patterns only Java's syntax has (backreferences, lookahead and
// lookbehind, atomic groups, `\Z`) run on github.com/dlclark/regexp2, a
// backtracking engine of the same family. A pathological pattern that
// exceeds the matcher's step budget on a row is finished by Go's
// linear-time regexp, which finds the same match.
package regex
