// Package interval reads and writes the values of Flink's day-time
// interval literals: the quoted text of INTERVAL '1 02:30' DAY TO MINUTE
// as milliseconds, and milliseconds back as the literal Flink writes. The
// sql package reads the literal's tokens and words its errors.
package interval
