// Package datagen is Flink's 'datagen' connector: random or sequence
// values for each physical column of a table, reproducible by 'seed'.
// It registers itself with exec/connector.
package datagen
