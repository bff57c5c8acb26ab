package writer

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// ParquetRowGroupRows is how many rows a Parquet file's row group holds at
// most: results are buffered into the open row group, which is written
// out when it is full and when the writer is closed.
const ParquetRowGroupRows = 128 * 1024

// ParquetCompressions are the values of 'parquet.compression' (Parquet's
// codec names, as Flink passes them to parquet-mr). SNAPPY is the default.
var ParquetCompressions = []string{"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD"}

// ParquetCompression reads a 'parquet.compression' value (any case).
func ParquetCompression(name string) (compress.Codec, bool) {
	switch strings.ToUpper(name) {
	case "UNCOMPRESSED", "NONE":
		return &parquet.Uncompressed, true
	case "SNAPPY", "":
		return &parquet.Snappy, true
	case "GZIP":
		return &parquet.Gzip, true
	case "ZSTD":
		return &parquet.Zstd, true
	}
	return nil, false
}

type parquetWriter struct {
	buf    *bufio.Writer
	pw     *parquet.GenericWriter[any]
	rows   *rowShredder
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

// NewParquetWriter writes results as one Parquet file, laid out as
// arrow-go's pqarrow lays out the schema (see parquetLayout), with the
// Arrow schema stored in the file under ARROW:schema, as pqarrow stores
// it, so that Arrow readers get back the exact types (a TIMESTAMP_LTZ
// stays zoned, a TIMESTAMP zone-less; both are instants or wall times in
// the file, so no time zone applies). Rows are buffered into row groups
// of up to ParquetRowGroupRows; the file is complete — its footer written
// — only once Close returns. Close does not close w.
//
// Parquet's writer is parquet-go's rather than pqarrow's: pqarrow brings
// in Arrow's compute kernels and Flight (gRPC, protobuf), whose
// initialisers cost every run of the program about 11 ms (a third of its
// start) and 40 MB of binary, for a sink few queries use.
func NewParquetWriter(w io.Writer, schema *arrow.Schema, codec compress.Codec) (ResultWriter, error) {
	stored := schema
	if s := storedSchema(schema); s != nil {
		stored = s
	}
	pqSchema, cols, err := parquetLayout(stored)
	if err != nil {
		return nil, err
	}
	arrowSchema, err := serializedArrowSchema(stored)
	if err != nil {
		return nil, fmt.Errorf("parquet writer: %w", err)
	}
	opts := []parquet.WriterOption{
		pqSchema,
		parquet.Compression(codec),
		parquet.MaxRowsPerRowGroup(ParquetRowGroupRows),
		parquet.KeyValueMetadata("ARROW:schema", arrowSchema),
		// PLAIN, as every reader reads it: parquet-go writes strings with
		// DELTA_LENGTH_BYTE_ARRAY unless told, whose arrow-go decoder
		// leaks a buffer
		parquet.DefaultEncodingFor(parquet.ByteArray, &parquet.Plain),
	}
	md := schema.Metadata()
	for i, k := range md.Keys() {
		opts = append(opts, parquet.KeyValueMetadata(k, md.Values()[i]))
	}
	config, err := parquet.NewWriterConfig(opts...)
	if err != nil {
		return nil, fmt.Errorf("parquet writer: %w", err)
	}
	buf := bufio.NewWriterSize(w, 64*1024)
	return &parquetWriter{buf: buf, pw: parquet.NewGenericWriter[any](buf, config), rows: newRowShredder(cols)}, nil
}

// serializedArrowSchema is schema as pqarrow stores it: an Arrow IPC
// stream of the schema alone (as Flight serializes one), in base64, with
// the list elements named "element" as in the Parquet schema.
func serializedArrowSchema(schema *arrow.Schema) (string, error) {
	fields := schema.Fields()
	for i := range fields {
		fields[i] = elementsNamed(fields[i])
	}
	md := schema.Metadata()
	var b bytes.Buffer
	w := ipc.NewWriter(&b, ipc.WithSchema(arrow.NewSchema(fields, &md)), ipc.WithAllocator(memory.DefaultAllocator))
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b.Bytes()), nil
}

// elementsNamed is f with the element field of every list in it named
// "element".
func elementsNamed(f arrow.Field) arrow.Field {
	switch t := f.Type.(type) {
	case *arrow.StructType:
		fields := t.Fields()
		for i := range fields {
			fields[i] = elementsNamed(fields[i])
		}
		f.Type = arrow.StructOf(fields...)
	case *arrow.MapType:
		m := arrow.MapOfFields(elementsNamed(t.KeyField()), elementsNamed(t.ItemField()))
		m.KeysSorted = t.KeysSorted
		f.Type = m
	case *arrow.ListType:
		e := elementsNamed(t.ElemField())
		e.Name = "element"
		f.Type = arrow.ListOfField(e)
	case *arrow.LargeListType:
		e := elementsNamed(t.ElemField())
		e.Name = "element"
		f.Type = arrow.LargeListOfField(e)
	}
	return f
}

func (p *parquetWriter) WriteBatch(rec arrow.RecordBatch) error {
	if p.closed {
		return ErrWriterClosed
	}
	if rec.NumRows() == 0 {
		return nil
	}
	// the writer starts a new row group itself when the open one is full
	if _, err := p.pw.WriteRows(p.rows.shred(rec)); err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	return nil
}

func (p *parquetWriter) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	if err := p.pw.Close(); err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	return p.buf.Flush()
}
