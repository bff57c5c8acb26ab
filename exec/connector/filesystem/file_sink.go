package filesystem

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/windowop"
)

// fileSink is the filesystem connector as the target of an INSERT: the
// plan-time description of the file a run writes, in the format its
// Writing writes (writer.CSVWriting, JSONWriting, ParquetWriting). A
// Parquet file is complete when the run ends. The sink is append-only.
type fileSink struct {
	// Path is a file, created or truncated by each run; an existing
	// directory gets the file part-0.csv, part-0.json or part-0.parquet
	// inside (part-1.csv for a script's second INSERT into it, see
	// CreateNth).
	Path   string
	Format string // "csv", "json" or "parquet"
	Table  string // the sink table's name, for messages
	// Schema is the sink table's columns, in table order, with its names;
	// a NOT NULL column is a non-nullable field.
	Schema *arrow.Schema
	// Columns gives, for each sink column, the index of the query column
	// written to it; nil when they come in table order.
	Columns []int
	// Writing writes the format (made by the format registry from the
	// table's options).
	Writing writer.Writing
	// Changelog is set for a format that writes row kinds (debezium-json):
	// its writer gets the row kind column first, "+I" for an append-only
	// query.
	Changelog bool
	// RollSize ends a checkpointed run's part file once it holds this
	// many bytes ('sink.rolling-policy.file-size'); 0: at checkpoints only.
	RollSize int64
	// RolloverInterval ends a checkpointed run's part file open this long,
	// checked at each batch written to it
	// ('sink.rolling-policy.rollover-interval'); 0: never.
	RolloverInterval time.Duration
	// Partition splits the rows of a PARTITIONED BY table into a
	// directory per partition value (partition_path.go); nil without.
	Partition *partitioning
	// Key, for a sink with a PRIMARY KEY in csv or json, are the indexes
	// of the key's columns in Schema: the file is the update stream
	// materialised by the key (upsert_sink.go). Nil for an append-only
	// sink.
	Key []int
}

// AppendOnly reports a sink that cannot take an update stream.
func (s *fileSink) AppendOnly() bool { return !s.Changelog && s.Key == nil }

// Create opens the sink's file for one run; zoned timestamps are written in
// loc. Closing the writer closes the file.
func (s *fileSink) Create(loc *time.Location) (writer.ResultWriter, error) {
	return s.CreateNth(loc, 0)
}

// CreateNth is Create for the nth INSERT (from 0) of a script into the
// sink: in a directory it writes part-<nth>.<format>, beside the files of
// the INSERTs before it, as Flink's jobs add part files. A path that is a
// file holds one INSERT's rows: nth must be 0.
func (s *fileSink) CreateNth(loc *time.Location, nth int) (writer.ResultWriter, error) {
	if s.Partition != nil {
		return s.createPartitioned(loc, nth)
	}
	path, err := s.nthPath(nth)
	if err != nil {
		return nil, err
	}
	if s.Key != nil {
		return s.createUpsert(loc, path, nil)
	}
	newWriter, err := s.formatWriter(loc)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	w, err := newWriter(f)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	return &fileSinkWriter{f: f, path: path, w: w, sink: s, loc: loc}, nil
}

// nthPath is the file of the nth INSERT (from 0) into the sink: the path,
// or part-<nth>.<format> in it when it is a directory.
func (s *fileSink) nthPath(nth int) (string, error) {
	path := s.Path
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "part-"+strconv.Itoa(nth)+"."+s.Format)
	} else if nth > 0 {
		return "", fmt.Errorf("filesystem sink: %s is not a directory, so it cannot take the rows of a second INSERT", s.Path)
	}
	return path, nil
}

// formatWriter returns what builds the sink's format writer over one
// file's io.Writer. The writer takes batches in the sink table's
// column order (see writeOrdered) and does not close the io.Writer.
func (s *fileSink) formatWriter(loc *time.Location) (func(io.Writer) (writer.ResultWriter, error), error) {
	if s.Writing == nil {
		return nil, fmt.Errorf("filesystem sink: unknown format %q", s.Format)
	}
	if s.Partition != nil {
		return s.Partition.Data.formatWriter(loc)
	}
	schema := s.Schema
	if s.Changelog {
		schema = arrow.NewSchema(append([]arrow.Field{windowop.RowKindField()}, schema.Fields()...), nil)
	}
	return func(w io.Writer) (writer.ResultWriter, error) { return s.Writing.NewWriter(w, schema, loc) }, nil
}

// writeOrdered writes rec's columns to w as the sink table declares them
// (see Schema and Columns): relabelled with the table's names and
// nullability, no copy. A NULL in a NOT NULL column fails the batch before
// any of it is written; loc shows zoned timestamps of that row.
func (s *fileSink) writeOrdered(w writer.ResultWriter, rec arrow.RecordBatch, loc *time.Location) error {
	kinds, cols, err := s.declared(rec, loc)
	if err != nil {
		return err
	}
	schema := s.Schema
	if s.Changelog {
		if kinds == nil {
			kinds = insertKinds(int(rec.NumRows()))
		} else {
			kinds.Retain()
		}
		defer kinds.Release()
		cols = append([]arrow.Array{kinds}, cols...)
		schema = arrow.NewSchema(append([]arrow.Field{windowop.RowKindField()}, schema.Fields()...), nil)
	}
	declared := array.NewRecordBatch(schema, cols, rec.NumRows())
	defer declared.Release()
	return w.WriteBatch(declared)
}

// declared is rec's columns as the sink table declares them, and the row
// kinds of an update stream (nil for an append-only one). The NOT NULL
// check of writeOrdered comes first.
func (s *fileSink) declared(rec arrow.RecordBatch, loc *time.Location) (*array.String, []arrow.Array, error) {
	var kinds *array.String
	shift := 0
	if rec.NumCols() > 0 && windowop.IsRowKindField(rec.Schema().Field(0)) {
		kinds, shift = rec.Column(0).(*array.String), 1
	}
	cols := make([]arrow.Array, s.Schema.NumFields())
	for i := range cols {
		c := i
		if s.Columns != nil {
			c = s.Columns[i]
		}
		cols[i] = rec.Column(c + shift)
		if !s.Schema.Field(i).Nullable && cols[i].NullN() > 0 {
			return nil, nil, connector.NotNullError(s.Table, s.Schema, i, cols, loc)
		}
	}
	return kinds, cols, nil
}

// insertKinds is the row kinds of n appended rows.
func insertKinds(n int) *array.String {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(n)
	for range n {
		b.Append(string(windowop.Insert))
	}
	return b.NewStringArray()
}

// String describes the sink for EXPLAIN and messages.
func (s *fileSink) String() string {
	return "filesystem(path=" + strconv.Quote(s.Path) + ", format=" + s.Format + ")"
}

// fileSinkWriter puts the query's columns in the sink table's order and
// closes the file at the end. The writers make one Write per batch, so
// there is no buffer to flush and each batch is in the file once written.
// After a failed write the file is not trusted (a Parquet file has no
// footer yet): Close removes it, so a failed run leaves no partial file.
type fileSinkWriter struct {
	f      *os.File
	path   string
	w      writer.ResultWriter
	sink   *fileSink
	loc    *time.Location
	failed bool
}

func (w *fileSinkWriter) WriteBatch(rec arrow.RecordBatch) error {
	if w.f == nil {
		return writer.ErrWriterClosed
	}
	err := w.sink.writeOrdered(w.w, rec, w.loc)
	if err != nil {
		w.failed = true
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
}

func (w *fileSinkWriter) Close() error {
	if w.f == nil {
		return nil
	}
	var err error
	if !w.failed {
		err = w.w.Close()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.f = nil
	if w.failed || err != nil {
		if rerr := os.Remove(w.path); rerr != nil && err == nil {
			err = rerr
		}
	}
	if err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	return nil
}
