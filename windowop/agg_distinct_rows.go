package windowop

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// rowKeyer encodes a row of COUNT(DISTINCT a, b, ...)'s arguments (one
// struct column) as one set key: each field's fixed 8 bytes (fixedKey),
// 16 for a DECIMAL, and a STRING's length and bytes, so two rows get the
// same key exactly when every field is equal.
type rowKeyer struct {
	buf []byte // scratch the borrowed key points into
}

func newRowKeyer(st *arrow.StructType) (*rowKeyer, error) {
	for _, f := range st.Fields() {
		switch f.Type.ID() {
		case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.BOOL, arrow.DATE32, arrow.TIME32,
			arrow.TIMESTAMP, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.STRING:
		default:
			return nil, fmt.Errorf("distinct values of type %s are not supported", f.Type)
		}
	}
	return &rowKeyer{}, nil
}

// key borrows rk.buf: it is valid until the next call, and the set keeps
// its own copy of a new key.
func (rk *rowKeyer) key(col arrow.Array, i int) string {
	b, st := rk.buf[:0], col.(*array.Struct)
	for j := range st.NumField() {
		f := st.Field(j)
		switch c := f.(type) {
		case *array.String:
			v := c.Value(i)
			b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
			b = append(b, v...)
		case *array.Decimal128:
			v := c.Value(i)
			b = binary.LittleEndian.AppendUint64(b, v.LowBits())
			b = binary.LittleEndian.AppendUint64(b, uint64(v.HighBits()))
		default:
			b = binary.LittleEndian.AppendUint64(b, fixedKey(f, i))
		}
	}
	rk.buf = b
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// rowValid: a row counts only when none of its fields is NULL, as
// COUNT(DISTINCT a, b) in Flink.
func rowValid(col arrow.Array, i int) bool {
	st := col.(*array.Struct)
	for j := range st.NumField() {
		if st.Field(j).IsNull(i) {
			return false
		}
	}
	return true
}
