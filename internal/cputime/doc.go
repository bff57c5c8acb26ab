// Package cputime is the CPU time the process has used, for the
// benchmarks that report rows per CPU-second: that rate does not depend on
// what else the machine runs, as rows per second of wall time do.
package cputime
