// Package nexmarkcheck checks the goldens of the Nexmark suite
// (testdata/nexmark, run by the root package's TestNexmarkSuite) against
// an independent computation: DuckDB, a batch engine, runs a reference
// query for each query file (reference/*.sql) over the very events wsql's
// nexmark connector generates, and the rows each golden's changelog
// leaves, materialised, must be those DuckDB computes.
//
// It is a module of its own because DuckDB needs cgo: the wsql module
// stays free of it. `go test` in this directory runs the check.
package nexmarkcheck
