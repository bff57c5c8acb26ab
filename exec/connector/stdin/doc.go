// Package stdin is wsql's 'stdin' connector, the shell pipe (Flink has no
// such connector): tail -f app.log | wsql -e "...". One split, unbounded
// until the input ends, in a format that reads (csv or json). It
// registers itself with exec/connector.
package stdin
