package filesystem

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/windowop"
)

// DefaultPartitionName is Flink's 'partition.default-name': the directory
// name of a NULL or empty partition value.
const DefaultPartitionName = "__DEFAULT_PARTITION__"

// partitioning is how a sink of a PARTITIONED BY table splits its rows:
// each row goes to the directory `col1=v1/col2=v2` under the sink's path,
// as Flink's filesystem connector (and Hive) lay partitions out, and the
// files hold the other columns only.
type partitioning struct {
	// Keys are the partition columns' indexes in the sink's Schema, in
	// PARTITIONED BY order; Names their names.
	Keys  []int
	Names []string
	// DefaultName replaces a NULL or empty value ('partition.default-name').
	DefaultName string
	// Data writes the files: the sink's schema without the partition
	// columns, in table order.
	Data *fileSink
	// SuccessFile is the name of the file written into a partition when it
	// is committed ('sink.partition-commit.policy.kind' = 'success-file');
	// "" for no commit action.
	SuccessFile string
}

// newPartitioning describes the partitions of a sink writing schema (the
// table's columns), keys being the PARTITIONED BY columns' indexes.
func newPartitioning(s *fileSink, keys []int) *partitioning {
	p := &partitioning{Keys: keys, DefaultName: DefaultPartitionName}
	var data []arrow.Field
	for _, k := range keys {
		p.Names = append(p.Names, s.Schema.Field(k).Name)
	}
	for i, f := range s.Schema.Fields() {
		if indexOf(keys, i) < 0 {
			data = append(data, f)
		}
	}
	d := *s
	d.Schema, d.Columns, d.Key, d.Partition = arrow.NewSchema(data, nil), nil, nil, nil
	p.Data = &d
	return p
}

func indexOf(list []int, v int) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// pathEscaped are the characters Flink's PartitionPathUtils (after Hive's
// FileUtils) writes as %XX in a partition directory name: the controls,
// the path separators and what a path or glob gives meaning to.
var pathEscaped = func() (set [256]bool) {
	for c := 0; c < ' '; c++ {
		set[c] = true
	}
	for _, c := range "\"#%'*/:=?\\\x7f{[]^" {
		set[c] = true
	}
	return set
}()

// appendEscaped appends v to dst as a partition path element: each byte of
// pathEscaped as '%' and two upper-case hex digits, the rest as it is.
func appendEscaped(dst []byte, v []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, c := range v {
		if pathEscaped[c] {
			dst = append(dst, '%', hex[c>>4], hex[c&15])
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// appendPartitionDir appends row i's partition directory to dst:
// `col1=v1/col2=v2`, each value as text (a string as it is, another type
// as wsql writes it in csv), escaped, and DefaultName for NULL or empty.
func (p *partitioning) appendPartitionDir(dst []byte, cols []arrow.Array, i int, val []byte, loc *time.Location) ([]byte, []byte) {
	for k, c := range p.Keys {
		if k > 0 {
			dst = append(dst, '/')
		}
		dst = appendEscaped(dst, []byte(p.Names[k]))
		dst = append(dst, '=')
		col := cols[c]
		val = val[:0]
		switch a := col.(type) {
		case *array.String:
			if a.IsValid(i) {
				val = append(val, a.Value(i)...)
			}
		default:
			val = format.AppendValue(val, col, i, loc)
		}
		if len(val) == 0 {
			dst = append(dst, p.DefaultName...)
			continue
		}
		dst = appendEscaped(dst, val)
	}
	return dst, val
}

// partitionBatch is the rows of one batch going to one partition.
type partitionBatch struct {
	Dir string            // `col1=v1/...`, relative to the sink's path
	Rec arrow.RecordBatch // the data columns (row kinds first for a changelog)
}

// split cuts rec (the query's columns) into one batch per partition, in
// the order of each partition's first row, every batch's rows in input
// order, so the files are the same whatever the batch sizes. A batch of
// one partition is a zero-copy view; the caller releases the batches.
func (s *fileSink) split(rec arrow.RecordBatch, loc *time.Location) ([]partitionBatch, error) {
	p := s.Partition
	kinds, cols, err := s.declared(rec, loc)
	if err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	// Consecutive rows mostly share their partition (a partition per
	// minute or day): a row's directory is made once per run of equal ones.
	var dirs []string
	var rows [][]int32
	index := map[string]int{}
	var cur, prev, val []byte
	g := -1
	for i := range n {
		cur, val = p.appendPartitionDir(cur[:0], cols, i, val, loc)
		if g < 0 || string(cur) != string(prev) {
			var ok bool
			if g, ok = index[string(cur)]; !ok {
				g = len(dirs)
				index[string(cur)] = g
				dirs = append(dirs, string(cur))
				rows = append(rows, nil)
			}
			prev, cur = cur, prev
		}
		rows[g] = append(rows[g], int32(i))
	}
	var data []arrow.Array
	var fields []arrow.Field
	if kinds != nil {
		data, fields = append(data, kinds), append(fields, windowop.RowKindField())
	}
	for i, c := range cols {
		if indexOf(p.Keys, i) < 0 {
			data, fields = append(data, c), append(fields, s.Schema.Field(i))
		}
	}
	whole := array.NewRecordBatch(arrow.NewSchema(fields, nil), data, int64(n))
	defer whole.Release()
	out := make([]partitionBatch, len(dirs))
	for g, dir := range dirs {
		if len(dirs) == 1 {
			whole.Retain()
			out[g] = partitionBatch{Dir: dir, Rec: whole}
			continue
		}
		sub, err := expr.TakeRecord(whole, rows[g], memory.DefaultAllocator)
		if err != nil {
			for _, b := range out[:g] {
				b.Rec.Release()
			}
			return nil, fmt.Errorf("filesystem sink: %w", err)
		}
		out[g] = partitionBatch{Dir: dir, Rec: sub}
	}
	return out, nil
}

// isPartitionDir reports whether dir is a partition directory as
// appendPartitionDir writes one: `name=value` elements joined by '/', so a
// checkpoint's directories stay below the sink's path.
func isPartitionDir(dir string) bool {
	for _, e := range strings.Split(dir, "/") {
		if name, _, ok := strings.Cut(e, "="); !ok || name == "" || e == "." || e == ".." || strings.ContainsRune(e, '\\') {
			return false
		}
	}
	return true
}
