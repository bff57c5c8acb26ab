// Package startgc keeps the garbage collector off while a program starts.
// Its packages' initialisers, then parsing and planning, allocate a few
// MiB on one goroutine: enough to start a collection before a query's
// work spreads over the cores. With GOMAXPROCS=2 that collection, its
// second thread and its stops, took 10 to 14 ms more of a 10M-row TUMBLE's
// wall time (470 against 484 ms, median of eight each) and nothing with
// GOMAXPROCS=1.
//
// A program opts in by importing startgc/atinit, whose initialiser calls
// Off among the first (cmd/wsql does); the start of the first job calls
// Restore. A library user's program never calls Off, and Restore then
// does nothing.
package startgc
