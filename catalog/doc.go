// Package catalog holds what CREATE TABLE declares: tables, their columns
// with SQL and Arrow types, the rowtime attribute and its watermark spec,
// and the connector options of the WITH clause.
//
// A Table is immutable once created; the Catalog maps names to tables for
// one session. Name lookup is exact first and then case-insensitive, so
// Flink queries (case-sensitive) and psql habits (case-insensitive) both
// work; an unknown name suggests the closest known one.
//
// The catalog reads wsql's own AST (package sql) and never sees the TiDB
// parser's.
package catalog
