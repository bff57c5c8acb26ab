// Package keyhash hashes the group key columns of a batch's rows, a
// column at a time, to the same value on every run and machine: the
// partitioned window, the Kafka sink's repartitioning and the jdbc sink's
// connections pick a row's partition by it.
package keyhash
