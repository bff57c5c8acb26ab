// Package kafka is wsql's 'kafka' connector, on franz-go: a topic read as
// one split per partition, each with its own watermark, its offsets in
// the checkpoint, from the start Flink's 'scan.startup.mode' gives to the
// end its 'scan.bounded.mode' gives (or on without end); and a topic
// written, a record per row. The message value is decoded and written
// through the format registry (json, csv) or as raw bytes; the key
// through 'key.format' and 'key.fields'. METADATA columns read the
// record's topic, partition, offset, timestamp, headers and key. It
// registers itself with exec/connector.
package kafka
