// Package mathfn holds the kernels of Flink's arithmetic functions that
// exec/expr does not: the trigonometric and logarithmic functions of a
// DOUBLE, SIGN, TRUNCATE, BIN and HEX of an integer, and the random
// functions RAND, RAND_INTEGER and UUID. RAND and RAND_INTEGER with a seed
// draw from java.util.Random's generator, so a seed gives Flink's
// sequence.
package mathfn
