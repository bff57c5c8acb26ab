// Package formats declares the formats connectors read and write (csv,
// json, parquet) in the format registry of exec/connector, one file each,
// and reads a table's format options into the decoders' settings.
package formats
