// Package blackhole is Flink's 'blackhole' sink connector: the rows are
// dropped, for measuring a query alone. It registers itself with
// exec/connector.
package blackhole
