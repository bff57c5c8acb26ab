package windowop

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// BYTES group keys: stringKeys with the values read from and written to
// an Arrow binary column, encoded as a STRING key is (length, bytes).

func encodeBytesKeys(a *array.Binary, bufs [][]byte) {
	for i := range bufs {
		if a.IsNull(i) {
			bufs[i] = append(bufs[i], 0)
			continue
		}
		v := a.Value(i)
		bufs[i] = append(bufs[i], 1)
		bufs[i] = binary.AppendUvarint(bufs[i], uint64(len(v)))
		bufs[i] = append(bufs[i], v...)
	}
}

func appendBytesKeys(k *stringKeys, ids []uint32, bb *array.BinaryBuilder) {
	bb.Reserve(len(ids))
	for _, id := range ids {
		if k.valid[id] {
			bb.AppendString(k.vals[id])
		} else {
			bb.AppendNull()
		}
	}
}
