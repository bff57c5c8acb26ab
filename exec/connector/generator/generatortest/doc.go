// Package generatortest holds what the generator connectors' tests share:
// reading a generator to its end as text, the hash of its rows, the
// interrupted-and-resumed read checked against an uninterrupted one, the
// refusal of damaged state, and the reader benchmark.
package generatortest
