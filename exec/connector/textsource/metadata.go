package textsource

import (
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// The metadata keys of a file's split, as Flink's filesystem connector
// names them ("Available Metadata").
const (
	MetaPath             = "file.path"
	MetaName             = "file.name"
	MetaSize             = "file.size"
	MetaModificationTime = "file.modification-time"
)

// MetadataColumn is a METADATA column of the read: its index in the
// source's schema and the key it reads. The format does not decode it;
// the read appends it to each batch of a file, the same value on every row.
type MetadataColumn struct {
	Index int
	Key   string
	// Partition names the partition column of a MetaPartition key.
	Partition string
}

// fileMetadata is what a split's metadata columns hold, found once when
// the split opens.
type fileMetadata struct {
	path, name string
	size       int64
	modified   int64 // Unix milliseconds
	// partitions are the values of the partition columns, by metadata
	// column (one row each; nil for a metadata key)
	partitions []arrow.Array
}

func (s *Source) statFileMetadata(path string) (fileMetadata, error) {
	st, err := os.Stat(path)
	if err != nil {
		return fileMetadata{}, err
	}
	fm := fileMetadata{path: path, name: filepath.Base(path), size: st.Size(), modified: st.ModTime().UnixMilli()}
	if s.Partitions != nil {
		if fm.partitions, err = s.partitionValues(path); err != nil {
			return fileMetadata{}, err
		}
	}
	return fm, nil
}

// decodeSchema is the schema the format decodes: the source's without
// its metadata columns.
func (s *Source) decodeSchema() *arrow.Schema {
	if len(s.Metadata) == 0 {
		return s.Schema
	}
	var fields []arrow.Field
	for i, f := range s.Schema.Fields() {
		if s.metadataAt(i) < 0 {
			fields = append(fields, f)
		}
	}
	return arrow.NewSchema(fields, nil)
}

func (s *Source) metadataAt(i int) int {
	for j, m := range s.Metadata {
		if m.Index == i {
			return j
		}
	}
	return -1
}

// withMetadata returns rec, decoded without the metadata columns, as a
// batch of the source's schema with the file's values in them; rec is
// released. Without metadata columns rec is returned as it is.
func (s *Source) withMetadata(rec arrow.RecordBatch, fm *fileMetadata, mem memory.Allocator) arrow.RecordBatch {
	if len(s.Metadata) == 0 || rec == nil {
		return rec
	}
	defer rec.Release()
	n := int(rec.NumRows())
	cols := make([]arrow.Array, s.Schema.NumFields())
	next := 0
	for i := range cols {
		j := s.metadataAt(i)
		if j < 0 {
			cols[i] = rec.Column(next)
			cols[i].Retain()
			next++
			continue
		}
		if s.Metadata[j].Key == MetaPartition {
			cols[i] = repeatValue(fm.partitions[j], n, mem)
			continue
		}
		cols[i] = constantColumn(s.Schema.Field(i).Type, s.Metadata[j].Key, fm, n, mem)
	}
	out := array.NewRecordBatch(s.Schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return out
}

// constantColumn is n rows of one metadata value of the file, of type dt
// (the connector checked the column's type against the key's).
func constantColumn(dt arrow.DataType, key string, fm *fileMetadata, n int, mem memory.Allocator) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	b.Reserve(n)
	switch key {
	case MetaPath, MetaName:
		v := fm.path
		if key == MetaName {
			v = fm.name
		}
		sb := b.(*array.StringBuilder)
		sb.ReserveData(n * len(v))
		for range n {
			sb.Append(v)
		}
	case MetaSize:
		ib := b.(*array.Int64Builder)
		for range n {
			ib.UnsafeAppend(fm.size)
		}
	case MetaModificationTime:
		tb := b.(*array.TimestampBuilder)
		for range n {
			tb.UnsafeAppend(arrow.Timestamp(fm.modified))
		}
	default:
		b.AppendNulls(n)
	}
	return b.NewArray()
}

// repeatValue is n rows of v's one value.
func repeatValue(v arrow.Array, n int, mem memory.Allocator) arrow.Array {
	idx := make([]int32, n)
	out, err := expr.Take(v, idx, mem)
	if err != nil {
		panic(err) // cannot happen: index 0 of a one-row array
	}
	return out
}
