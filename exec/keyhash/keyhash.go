package keyhash

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Rows computes, for every row, a hash of its group key columns (the same
// on every run and machine: which partition a key lands in must not
// change between runs, or output order would), one column at a time.
func Rows(rec arrow.RecordBatch, keys []int, out []uint64) error {
	n := int(rec.NumRows())
	for i := range out[:n] {
		out[i] = 0x9e3779b97f4a7c15
	}
	for _, k := range keys {
		col := rec.Column(k)
		switch a := col.(type) {
		case *array.String:
			for i := range n {
				h := uint64(14695981039346656037) // FNV-1a
				if a.IsValid(i) {
					s := a.Value(i)
					for j := 0; j < len(s); j++ {
						h = (h ^ uint64(s[j])) * 1099511628211
					}
				}
				out[i] = mixHash(out[i], h)
			}
		case *array.Binary: // BYTES keys hash as STRING keys do
			for i := range n {
				h := uint64(14695981039346656037) // FNV-1a
				if a.IsValid(i) {
					for _, c := range a.Value(i) {
						h = (h ^ uint64(c)) * 1099511628211
					}
				}
				out[i] = mixHash(out[i], h)
			}
		case *array.Boolean:
			for i := range n {
				v := uint64(2)
				if a.IsValid(i) && a.Value(i) {
					v = 1
				} else if a.IsValid(i) {
					v = 0
				}
				out[i] = mixHash(out[i], v)
			}
		default:
			fw, ok := col.DataType().(arrow.FixedWidthDataType)
			if !ok || fw.BitWidth()%8 != 0 || len(col.Data().Buffers()) < 2 {
				return fmt.Errorf("cannot partition by a key of type %s", col.DataType())
			}
			width := fw.BitWidth() / 8
			buf := col.Data().Buffers()[1].Bytes()[col.Data().Offset()*width:]
			var word [16]byte
			for i := range n {
				var v uint64
				if col.IsValid(i) {
					copy(word[:], buf[i*width:(i+1)*width])
					v = binary.LittleEndian.Uint64(word[:8]) ^ binary.LittleEndian.Uint64(word[8:])*31
					clear(word[:])
				} else {
					v = 0xa5a5a5a5a5a5a5a5
				}
				out[i] = mixHash(out[i], v)
			}
		}
	}
	return nil
}

// mixHash folds v into h (splitmix64's finalizer).
func mixHash(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}
