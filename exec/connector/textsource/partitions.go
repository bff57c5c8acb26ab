package textsource

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format"
)

// MetaPartition is the key of a partition column of a PARTITIONED BY
// table: filled, like a metadata column, per file, from the file's
// directory `col=value` (MetadataColumn.Partition names the column).
const MetaPartition = "\x00partition"

// Partitions is how a source of a PARTITIONED BY table reads its path, as
// Flink's filesystem connector: the files are in directories
// `col1=v1/col2=v2/` below it, the partition columns are not in the files
// but in those names, escaped (%XX), DefaultName standing for NULL.
type Partitions struct {
	DefaultName string
}

// listSplits lists the splits of the read: those of ListSplits, or for a
// partitioned table every file below the path, by path.
func (s *Source) listSplits() ([]string, error) {
	if s.Partitions == nil {
		return ListSplits(s.Path)
	}
	return ListPartitionSplits(s.Path)
}

// ListPartitionSplits returns the files below path, in its partition
// directories too, sorted by path; names starting with '.' or '_'
// (hidden files, in-progress part files, _SUCCESS) are skipped at every
// level, as Flink does.
func ListPartitionSplits(path string) ([]string, error) {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return ListSplits(path)
	}
	splits := []string{}
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == path {
			return nil
		}
		if name := d.Name(); strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		st, err := os.Stat(p) // follows symbolic links
		if err != nil {
			return err
		}
		if st.Mode().IsRegular() {
			splits = append(splits, p)
		}
		return nil
	})
	sort.Strings(splits)
	return splits, err
}

// partitionValues are the values of the partition columns of the file at
// path, one row each, by metadata column: read from its directories below
// the source's path, parsed as the columns' types; NULL for DefaultName or
// a partition the path does not name.
func (s *Source) partitionValues(path string) ([]arrow.Array, error) {
	rel, err := filepath.Rel(s.Path, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	found := map[string]string{}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if k, v, ok := strings.Cut(part, "="); ok {
			found[unescapePath(k)] = unescapePath(v)
		}
	}
	vals := make([]arrow.Array, len(s.Metadata))
	for j, m := range s.Metadata {
		if m.Key != MetaPartition {
			continue
		}
		f := s.Schema.Field(m.Index)
		v, ok := found[m.Partition]
		if v == s.Partitions.DefaultName {
			ok = false
		}
		vals[j], err = parsePartitionValue(f, v, ok)
		if err != nil {
			return nil, fmt.Errorf("%s: partition %s=%s: %w", path, m.Partition, v, err)
		}
	}
	return vals, nil
}

// parsePartitionValue reads one value as the csv format reads a field:
// text into the column's type; a one-row array (NULL when !ok). It is
// read once per file, into Go memory, and copied into each batch.
func parsePartitionValue(f arrow.Field, v string, ok bool) (arrow.Array, error) {
	if !ok {
		return array.MakeArrayOfNull(memory.DefaultAllocator, f.Type, 1), nil
	}
	f.Nullable = true
	line := "\"" + strings.ReplaceAll(v, "\"", "\"\"") + "\"\n"
	dec := format.NewCSVDecoder(strings.NewReader(line), "partition", arrow.NewSchema([]arrow.Field{f}, nil), format.CSVOptions{}, memory.DefaultAllocator, 1)
	rec, err := dec.Next()
	if err != nil {
		return nil, err
	}
	if rec == nil || rec.NumRows() != 1 {
		return nil, fmt.Errorf("no value")
	}
	col := rec.Column(0)
	col.Retain()
	rec.Release()
	return col, nil
}

// unescapePath undoes the %XX escapes of a partition directory name
// (Flink's PartitionPathUtils.unescapePathName).
func unescapePath(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if hi, lo := unhex(s[i+1]), unhex(s[i+2]); hi >= 0 && lo >= 0 {
				b.WriteByte(byte(hi<<4 | lo))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
