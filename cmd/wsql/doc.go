// Command wsql runs Flink-dialect windowed SQL over CSV files.
//
//	wsql run FILE.sql        run every statement of a file (also: wsql FILE.sql, wsql -f FILE.sql)
//	wsql -e 'SQL'            run the statements of a string
//	wsql < FILE.sql          run statements read from a pipe
//	wsql                     on a terminal: the interactive shell (\help inside)
//	wsql --help              the usage
//	wsql --version           the version, VCS revision and Go version
//
// Flags, before or after the other arguments: --format
// table|csv|json|arrow (default table on a terminal, csv otherwise),
// --output FILE, --checkpoint-dir DIR, --serve ADDR (metrics, health and
// a status page over HTTP while the script runs, docs/monitoring.md), and
// -i FILE, run first on the same session (as in Flink's SQL client).
// Results go to stdout as windows fire; diagnostics and a one-line
// summary per query go to stderr. The exit status is 0 on success, 1 on an
// error in the SQL or the input, 2 on a usage error.
//
// The command holds no logic of its own: it wires flags, files and
// terminals to the wsql Go API.
package main
