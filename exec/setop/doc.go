// Package setop runs INTERSECT, INTERSECT ALL, EXCEPT and EXCEPT ALL over
// the rows of both queries, tagged by side, as Flink plans them: counts
// per distinct row and side, and the copies of each row the operation
// keeps emitted as +I and -D as they change.
package setop
