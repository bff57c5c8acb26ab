package writer

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ParquetRowGroupRows is how many rows a Parquet file's row group holds at
// most: results are buffered into the open row group, which is written
// out when it is full and when the writer is closed.
const ParquetRowGroupRows = 128 * 1024

// ParquetCompressions are the values of 'parquet.compression' (Parquet's
// codec names, as Flink passes them to parquet-mr). SNAPPY is the default.
var ParquetCompressions = []string{"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD"}

// ParquetCompression reads a 'parquet.compression' value (any case).
func ParquetCompression(name string) (compress.Compression, bool) {
	switch strings.ToUpper(name) {
	case "UNCOMPRESSED", "NONE":
		return compress.Codecs.Uncompressed, true
	case "SNAPPY", "":
		return compress.Codecs.Snappy, true
	case "GZIP":
		return compress.Codecs.Gzip, true
	case "ZSTD":
		return compress.Codecs.Zstd, true
	}
	return compress.Codecs.Uncompressed, false
}

type parquetWriter struct {
	buf    *bufio.Writer
	fw     *pqarrow.FileWriter
	stored *arrow.Schema // the schema with intervals as integers; nil when it has none
	cols   []arrow.Array
	closed bool
}

// Parquet has no type arrow-go writes for intervals, so a day-time
// interval is stored as its int64 milliseconds and a year-month interval
// as its int32 months, the field marked with IntervalMetadataKey.
const IntervalMetadataKey = "wsql.interval"

// storedSchema is schema with its interval fields as integers; nil when
// it has none.
func storedSchema(schema *arrow.Schema) *arrow.Schema {
	fields := schema.Fields()
	found := false
	for i, f := range fields {
		kind, dt := "", arrow.DataType(nil)
		switch f.Type.ID() {
		case arrow.DURATION:
			kind, dt = "INTERVAL DAY TO SECOND(3) in milliseconds", arrow.PrimitiveTypes.Int64
		case arrow.INTERVAL_MONTHS:
			kind, dt = "INTERVAL YEAR TO MONTH in months", arrow.PrimitiveTypes.Int32
		default:
			continue
		}
		found = true
		fields[i].Type = dt
		fields[i].Metadata = arrow.NewMetadata(append(f.Metadata.Keys(), IntervalMetadataKey), append(f.Metadata.Values(), kind))
	}
	if !found {
		return nil
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// NewParquetWriter writes results as one Parquet file through pqarrow, with
// the Arrow schema stored in the file so readers get back the exact types
// (a TIMESTAMP_LTZ stays zoned, a TIMESTAMP zone-less; both are instants
// or wall times in the file, so no time zone applies). Rows are buffered
// into row groups of up to ParquetRowGroupRows; the file is complete — its
// footer written — only once Close returns. Close does not close w.
// Parquet buffers allocate from mem (nil means the default allocator).
func NewParquetWriter(w io.Writer, schema *arrow.Schema, codec compress.Compression, mem memory.Allocator) (ResultWriter, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	buf := bufio.NewWriterSize(w, 64*1024)
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(mem),
		parquet.WithCompression(codec),
		parquet.WithMaxRowGroupLength(ParquetRowGroupRows),
	)
	arrProps := pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema())
	stored := storedSchema(schema)
	if stored != nil {
		schema = stored
	}
	// the parquet writer closes a sink that is an io.Closer; ours is not
	fw, err := pqarrow.NewFileWriter(schema, struct{ io.Writer }{buf}, props, arrProps)
	if err != nil {
		return nil, fmt.Errorf("parquet writer: %w", err)
	}
	return &parquetWriter{buf: buf, fw: fw, stored: stored}, nil
}

func (p *parquetWriter) WriteBatch(rec arrow.RecordBatch) error {
	if p.closed {
		return ErrWriterClosed
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if p.stored != nil { // intervals as the integers they hold: no copy
		p.cols = p.cols[:0]
		for i, col := range rec.Columns() {
			if dt := p.stored.Field(i).Type; !arrow.TypeEqual(dt, col.DataType()) {
				d := col.Data()
				nd := array.NewData(dt, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
				col = array.MakeFromData(nd)
				nd.Release()
				defer col.Release()
			}
			p.cols = append(p.cols, col)
		}
		rec = array.NewRecordBatch(p.stored, p.cols, rec.NumRows())
		defer rec.Release()
	}
	// WriteBuffered starts a new row group itself when the open one is full
	if err := p.fw.WriteBuffered(rec); err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	return nil
}

func (p *parquetWriter) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	if err := p.fw.Close(); err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	return p.buf.Flush()
}
