package jsonfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// strOut builds a STRING column row by row straight into its offsets and
// data buffers: per row one bounds check and one copy, no builder call.
type strOut struct {
	offBuf  *memory.Buffer
	offsets []int32
	data    *memory.Buffer
	bytes   []byte // data's bytes
	rows    int    // rows written
	end     int    // data bytes written
	tooBig  bool   // past expr.MaxStringColumnBytes
}

func newStrOut(mem memory.Allocator, n, dataHint int) *strOut {
	o := &strOut{data: memory.NewResizableBuffer(mem)}
	o.offBuf, o.offsets = expr.NewValues[int32](mem, n+1)
	o.offsets[0] = 0
	o.data.Resize(max(dataHint, 64))
	o.bytes = o.data.Bytes()
	return o
}

// room makes room for k more bytes; false past the column limit.
func (o *strOut) room(k int) bool {
	if o.end+k <= len(o.bytes) {
		return true
	}
	if o.end+k > expr.MaxStringColumnBytes {
		o.tooBig = true
		return false
	}
	o.data.Resize(min(max(2*len(o.bytes), o.end+k), expr.MaxStringColumnBytes))
	o.bytes = o.data.Bytes()
	return true
}

func (o *strOut) add(s string) {
	if o.room(len(s)) {
		o.end += copy(o.bytes[o.end:], s)
	}
	o.rows++
	o.offsets[o.rows] = int32(o.end)
}

func (o *strOut) addBytes(b []byte) {
	if o.room(len(b)) {
		o.end += copy(o.bytes[o.end:], b)
	}
	o.rows++
	o.offsets[o.rows] = int32(o.end)
}

// null writes an empty value; the caller's validity marks it NULL.
func (o *strOut) null() {
	o.rows++
	o.offsets[o.rows] = int32(o.end)
}

func (o *strOut) release() {
	o.offBuf.Release()
	o.data.Release()
}

// finish makes the column; its validity is given.
func (o *strOut) finish(fn string, validity *memory.Buffer, nulls int) (arrow.Array, error) {
	if o.tooBig {
		o.release()
		if validity != nil {
			validity.Release()
		}
		return nil, fmt.Errorf("%w: %s results of one batch need more than %d bytes", expr.ErrStringLimit, fn, expr.MaxStringColumnBytes)
	}
	o.data.Resize(o.end)
	return expr.NewArray(arrow.BinaryTypes.String, o.rows, validity, nulls, o.offBuf, o.data), nil
}
