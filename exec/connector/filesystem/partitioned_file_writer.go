package filesystem

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format/writer"
)

// partitionedFileWriter is a run without checkpoints of a PARTITIONED BY
// sink: each partition's rows go to `<path>/<col=value...>/part-<nth>.<format>`,
// a file per partition opened at its first row, as CreateNth writes one
// file for an unpartitioned sink. Closed after a run without a write
// error, it commits every partition it wrote (Flink's end of a bounded
// input): with 'success-file' a `_SUCCESS` file goes into each.
type partitionedFileWriter struct {
	sink   *fileSink
	loc    *time.Location
	nth    int
	files  map[string]*fileSinkWriter
	dirs   []string // partition directories, in the order first written
	failed bool
	closed bool
}

// createPartitioned opens a partitioned sink for a run without
// checkpoints: the path is a directory, created if missing.
func (s *fileSink) createPartitioned(loc *time.Location, nth int) (writer.ResultWriter, error) {
	if st, err := os.Stat(s.Path); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("filesystem sink: table %s is partitioned, so its path is a directory of partitions; %s is a file", s.Table, s.Path)
	}
	if err := os.MkdirAll(s.Path, 0o755); err != nil {
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	return &partitionedFileWriter{sink: s, loc: loc, nth: nth, files: map[string]*fileSinkWriter{}}, nil
}

func (w *partitionedFileWriter) WriteBatch(rec arrow.RecordBatch) error {
	if w.closed {
		return writer.ErrWriterClosed
	}
	if rec.NumRows() == 0 {
		return nil
	}
	batches, err := w.sink.split(rec, w.loc)
	if err != nil {
		w.failed = true
		return fmt.Errorf("filesystem sink: %w", err)
	}
	defer func() {
		for _, b := range batches {
			b.Rec.Release()
		}
	}()
	for _, b := range batches {
		f, err := w.file(b.Dir)
		if err == nil {
			err = f.WriteBatch(b.Rec)
		}
		if err != nil {
			w.failed = true
			return err
		}
	}
	return nil
}

// file is the partition's open file, created at its first row.
func (w *partitionedFileWriter) file(dir string) (*fileSinkWriter, error) {
	if f, ok := w.files[dir]; ok {
		return f, nil
	}
	data := w.sink.Partition.Data
	full := filepath.Join(w.sink.Path, filepath.FromSlash(dir))
	if err := os.MkdirAll(full, 0o755); err != nil {
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	path := filepath.Join(full, "part-"+strconv.Itoa(w.nth)+"."+data.Format)
	newWriter, err := data.formatWriter(w.loc)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	fw, err := newWriter(f)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	sw := &fileSinkWriter{f: f, path: path, w: fw, sink: data, loc: w.loc}
	w.files[dir] = sw
	w.dirs = append(w.dirs, dir)
	return sw, nil
}

// Abort tells the writer that the run failed: Close keeps the files
// written but commits no partition.
func (w *partitionedFileWriter) Abort() { w.failed = true }

// Close closes the partitions' files and, after a run without a write
// error, commits the partitions.
func (w *partitionedFileWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	var errs []error
	for _, dir := range w.dirs {
		if err := w.files[dir].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 && !w.failed {
		for _, dir := range w.dirs {
			if err := w.sink.Partition.commit(w.sink.Path, dir); err != nil {
				errs = append(errs, err)
				break
			}
		}
	}
	return errors.Join(errs...)
}
