// Package print is Flink's 'print' sink connector: every result row
// written to standard output, with an optional 'print-identifier' prefix.
// It registers itself with exec/connector.
package print
