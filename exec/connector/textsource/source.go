package textsource

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/badrows"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/rowtime"
)

// Source is a read of text through a format: the filesystem connector's
// CSV or JSON lines file or directory of such files, or the one split of a
// stream (the 'stdin' connector, an io.Reader attached from Go). It is the
// plan-time description of what to read. Each file is a split
// with its own watermark generator (docs/semantics.md, "Several files: splits"); a single file is a
// directory of one split. Open starts a read.
type Source struct {
	exec.SourceSpec
	Path string
	// Stream, when set, is read instead of Path as one split: the 'stdin'
	// connector (the caller's standard input, or any reader the Go API
	// hands in). It is not closed. Unbounded until it ends.
	Stream io.Reader
	// StreamName labels Stream in errors and EXPLAIN, e.g. "stdin".
	StreamName string
	// Input, when set, is read like Stream but only once: an io.Reader a
	// Go program attached as a table (see ReaderInput).
	Input *ReaderInput
	// Splits are the files to read, one split each, in order. The planner
	// lists them (ListSplits) so EXPLAIN shows what a run reads; nil means
	// Open lists Path itself.
	Splits []string
	// Format names the format read, for messages and EXPLAIN; Decoding
	// decodes it (made by the format registry from the table's options).
	Format   string
	Decoding format.Decoding
	// MonitorInterval is 'source.monitor-interval': when set, the read is
	// unbounded (see followReader): every file is followed as it grows and,
	// for a directory, new files are picked up as new splits, polling
	// every interval. Zero: a bounded read of the files as they are.
	MonitorInterval time.Duration
	// MaxRecordBytes is 'wsql.max-record-bytes', the longest record the
	// decoders read (see format.CSVOptions.MaxRecordBytes); 0 is the default.
	MaxRecordBytes int
	// Metadata are the table's METADATA columns, filled per file (see
	// withMetadata); the format decodes the other columns.
	Metadata []MetadataColumn
	// Partitions is set for a PARTITIONED BY table: its files are below
	// the path in partition directories, which give the partition columns
	// (Metadata, key MetaPartition). Nil otherwise.
	Partitions *Partitions
}

// ListSplits returns the splits of path: path itself when it is a file, or
// every regular file of the directory sorted by name, skipping names that
// start with '.' or '_' as Flink does (hidden files, _SUCCESS markers).
// Subdirectories are not read. An empty directory has no splits.
func ListSplits(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path) // sorted by name
	if err != nil {
		return nil, err
	}
	splits := []string{}
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		p := filepath.Join(path, e.Name())
		st, err := os.Stat(p) // follows symbolic links
		if err != nil {
			return nil, err
		}
		if st.Mode().IsRegular() {
			splits = append(splits, p)
		}
	}
	return splits, nil
}

// NumSplits returns how many splits a read has: the planned ones, or 1 when
// they were not listed (a path that did not exist at plan time).
func (s *Source) NumSplits() int {
	if s.Splits == nil {
		return 1
	}
	return len(s.Splits)
}

// Open opens every split and returns a reader that interleaves them or,
// with at (the source state of a checkpoint, see splitReader.SaveState),
// resumes the read where the checkpoint was taken: each split's file
// seeked to its position, ended splits left ended, and the bad-rows file
// cut back to what it held then.
func (s *Source) Open(mem memory.Allocator, at *checkpoint.Decoder) (exec.BatchReader, error) {
	paths := s.Splits
	stream := s.Stream
	if s.Input != nil {
		r, err := s.Input.take()
		if err != nil {
			return nil, err
		}
		stream, paths = r, []string{s.Input.Name}
	} else if stream != nil {
		paths = []string{s.StreamName}
	} else if paths == nil {
		var err error
		if paths, err = s.listSplits(); err != nil {
			return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
		}
	}
	size := s.BatchSize
	if size <= 0 {
		size = exec.DefaultBatchSize
	}
	if s.MonitorInterval > 0 && stream == nil {
		return s.openFollow(paths, mem, size, at)
	}
	var st *sourceState
	if at != nil {
		if stream != nil {
			return nil, fmt.Errorf("%w: %s cannot be read again", exec.ErrCheckpointUnsupported, paths[0])
		}
		var err error
		if st, err = readSourceState(at, paths); err != nil {
			return nil, err
		}
	}
	r := &splitReader{splits: make([]fileSplit, len(paths)), live: len(paths), src: s, mem: mem}
	var in *streamInput
	if s.Decoding == nil {
		return nil, fmt.Errorf("%w: unknown format %q", exec.ErrSource, s.Format)
	}
	var onBad func(*format.ParseError, []byte)
	if s.BadRowsPath != "" {
		var bad *badrows.File
		var err error
		if st != nil {
			bad, err = badrows.Reopen(s.BadRowsPath, st.badLen)
		} else {
			bad, err = badrows.Create(s.BadRowsPath)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
		}
		r.bad = bad
		onBad = bad.Write
	} else if st != nil && st.badLen >= 0 {
		return nil, fmt.Errorf("%w: the checkpoint wrote a bad-rows file, this run has none", checkpoint.ErrIncompatible)
	}
	decoding := s.Decoding.ForRead(onBad, s.MaxRecordBytes)
	decodeSchema := s.decodeSchema()
	for i, p := range paths {
		r.splits[i].name = p
		var at format.SplitPosition
		if st != nil {
			if st.splits[i].ended {
				r.splits[i] = fileSplit{name: p, dec: endedDecoder(st.splits[i].pos.Skipped), ended: true}
				continue
			}
			at = st.splits[i].pos
		}
		var f io.ReadCloser
		if stream != nil {
			in = newStreamInput(stream)
			f = io.NopCloser(in)
		} else {
			file, err := os.Open(p)
			if err == nil && st != nil {
				if err = seekSplit(file, p, at, st.splits[i].tail); err != nil {
					file.Close()
				}
			}
			if err != nil {
				r.Close()
				return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
			}
			f = file
		}
		var dec splitDecoder
		var meta fileMetadata
		if stream == nil {
			// A bounded read of a file: decoded in parallel by chunks.
			dec = decoding.NewParallelDecoder(f, p, decodeSchema, mem, size, len(paths), at)
			if len(s.Metadata) > 0 {
				var err error
				if meta, err = s.statFileMetadata(p); err != nil {
					f.Close()
					r.Close()
					return nil, fmt.Errorf("%w: %w", exec.ErrSource, err)
				}
			}
		} else {
			dec = decoding.NewDecoder(f, p, decodeSchema, mem, size)
		}
		r.splits[i] = fileSplit{name: p, f: f, dec: dec, meta: meta}
	}
	if st != nil {
		r.next, r.live, r.rows = st.next, st.live, st.rows
	}
	if in != nil {
		return streamReader{r, in}, nil
	}
	return r, nil
}

// String describes the source for messages.
func (s *Source) String() string {
	return "filesystem(path=" + strconv.Quote(s.Path) + ", format=" + s.Format + ")"
}

// Explain describes the scan: a stream (stdin) or the path with its
// splits and, when followed, the monitor interval.
func (s *Source) Explain() string {
	if s.Stream != nil {
		return "connector=[" + s.StreamName + "], format=[" + s.Format + "], splits=[1], unbounded until the input ends"
	}
	monitor := ""
	if s.MonitorInterval > 0 {
		// unbounded, and splits may join as files appear
		monitor = ", monitor-interval=[" + rowtime.DurationText(s.MonitorInterval) + "], unbounded"
	}
	return fmt.Sprintf("connector=[filesystem], path=[%s], format=[%s], splits=[%d]%s", s.Path, s.Format, s.NumSplits(), monitor)
}

// Checkpointable refuses a stream: it cannot be read again after a restart.
func (s *Source) Checkpointable() error {
	if s.Stream == nil && s.Input == nil {
		return nil
	}
	name := s.StreamName
	if s.Input != nil {
		name = s.Input.Name
	}
	return fmt.Errorf("%w: the query reads %s, a stream that cannot be read again after a restart; checkpoints need files or generators", exec.ErrCheckpointUnsupported, name)
}

// Identity writes the format and its resolved options.
func (s *Source) Identity(b *strings.Builder) {
	fmt.Fprintf(b, "  format %q", s.Format)
	if s.Decoding != nil {
		s.Decoding.Identity(b)
	}
}

// WithoutListedSplits is a copy of s that lists its path when read.
func (s *Source) WithoutListedSplits() exec.Source {
	c := *s
	c.Splits = nil
	return &c
}

// InputPath is the file or directory read; "" for a stream.
func (s *Source) InputPath() string {
	if s.Stream != nil || s.Input != nil {
		return ""
	}
	return s.Path
}

// InputSplits are the files listed at plan time.
func (s *Source) InputSplits() []string { return s.Splits }
