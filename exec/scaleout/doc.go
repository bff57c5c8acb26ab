// Package scaleout holds what a scaled-out query's sources provide: the
// read shared by the instances of a query as members of a group (Kafka's
// consumer group), read one partition at a time, and the repartition
// topic between the two stages of a query whose groups are not each in
// one partition. The engine runs the stages (the root package's
// scale_out.go); the Kafka connector provides them
// (exec/connector/kafka). See docs/kafka.md, "Scale-out".
package scaleout
