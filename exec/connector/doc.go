// Package connector is the registry of connectors and formats: each
// connector ('connector' = 'filesystem', 'datagen', ...) declares its
// identifier, its option schema and its source and sink factories in its
// own package under exec/connector/ and registers itself in init, the way
// Flink's DynamicTableSourceFactory and DynamicTableSinkFactory are found
// by identifier. Formats ('format' = 'csv', ...) register the same way in
// a registry of their own. The planner, CREATE TABLE validation,
// DESCRIBE, the shell's completion and the docs tests read the registries
// instead of lists of their own; exec/connector/builtin registers the
// connectors wsql ships.
//
// The package also holds what several connectors share: reading option
// values with positioned errors, the table's source schema, the
// 'scan.watermark.max-future' option.
package connector
