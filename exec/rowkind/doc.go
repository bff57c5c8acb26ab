// Package rowkind is the change a row of an update stream carries, as
// Flink's RowKind: +I, -U, +U, -D. An update stream is a batch whose first
// column is the row kind column (windowop.RowKindField) holding that text;
// this package reads it as a typed Kind, for the Go API, the database/sql
// driver's scans and the result writers that materialise a changelog.
package rowkind
