// Package golden holds the one -rewrite flag of the module's tests and the
// check of an output against its golden file.
//
// Every test that compares with an expected output on disk (the SQL dumps
// of testdata/sql, the end-to-end scripts of testdata/e2e, the examples in
// docs/*.md, the data-driven window operator scripts) regenerates it with
// the same flag, given to the packages that have goldens:
//
//	go test . ./sql ./windowop -rewrite
//
// and the diff is then reviewed; goldens are never edited by hand. (Other
// packages' test binaries do not know the flag: go test ./... -rewrite
// fails in them.)
package golden
