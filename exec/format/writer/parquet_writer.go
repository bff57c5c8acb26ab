package writer

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
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
	closed bool
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
	// the parquet writer closes a sink that is an io.Closer; ours is not
	fw, err := pqarrow.NewFileWriter(schema, struct{ io.Writer }{buf}, props, arrProps)
	if err != nil {
		return nil, fmt.Errorf("parquet writer: %w", err)
	}
	return &parquetWriter{buf: buf, fw: fw}, nil
}

func (p *parquetWriter) WriteBatch(rec arrow.RecordBatch) error {
	if p.closed {
		return ErrWriterClosed
	}
	if rec.NumRows() == 0 {
		return nil
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
