// Package avro is Flink's 'avro' format for messages: a table's columns as
// an Avro record, its schema derived from the columns by Flink's type
// mapping (Schema), each message one record in Avro's binary encoding,
// without a container or a header.
//
// Decoding is compiled once from the writer's schema and the table's
// columns (Avro's schema resolution: fields matched by name, writer fields
// the table lacks skipped, nullable columns the writer lacks NULL, int and
// long widened, unions read by branch) into a tree of steps, each of which
// appends the value it reads straight into its column's Arrow builder:
// no value passes through an interface or a map. A message that cannot be
// read is named with the byte and the column where it went wrong; the
// poll's messages are then decoded again without it, each checked before
// it is appended, so a bad message never leaves half a row behind.
//
// The Avro library is github.com/twmb/avro, for parsing and printing
// schemas (the writer schemas a registry holds, the table's schema sent to
// it). It was chosen over github.com/hamba/avro/v2 by measurement: decoding
// 300,000 records of six fields into a Go struct took 33 ms with twmb/avro
// and 75 ms with hamba/avro (into maps, 256 ms and 377 ms), and twmb/avro
// depends on nothing beyond the standard library for it (hamba/avro brings
// json-iterator and reflect2). The records themselves are read by this
// package's own decoder, which appends to Arrow builders directly: 39 ms
// for those 300,000 records, the Arrow buffers made included, against the
// library's 32 ms into one reused struct (BenchmarkDecode,
// BenchmarkDecodeLibrary); a table's row has no Go struct, and the
// library's decode into maps, 256 ms, would still leave the values to
// append.
package avro
