package rowstore

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// gatherColumn builds column c of the rows at places of src, reading the
// chunks' buffers value by value: rows come from many chunks in any order
// (a deduplication's old row and new row alternate), where a take per run
// of one chunk would cost a take per row. runs, when not nil, are places
// as long runs of consecutive rows (an OVER aggregation's rows released
// by a watermark, in arrival order), copied a run at a time. Types
// without a case here go by runs of one chunk (gatherRuns).
func (s *Store) gatherColumn(src []columnSource, c int, places []place, runs []run) (arrow.Array, error) {
	dt := s.schema.Field(c).Type
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		return gatherFixed[uint8](s.out, src, c, places, runs, dt), nil
	case arrow.INT16, arrow.UINT16:
		return gatherFixed[uint16](s.out, src, c, places, runs, dt), nil
	case arrow.INT32, arrow.UINT32, arrow.FLOAT32, arrow.DATE32, arrow.TIME32:
		return gatherFixed[uint32](s.out, src, c, places, runs, dt), nil
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return gatherFixed[uint64](s.out, src, c, places, runs, dt), nil
	case arrow.STRING:
		return gatherStrings(s.out, src, c, places, runs), nil
	}
	return gatherRuns(s.out, src, c, places)
}

// columnBuffers is one chunk's column as its raw buffers, read once per
// gather so the row loop does no type assertion or interface call.
type columnBuffers[T uint8 | uint16 | uint32 | uint64] struct {
	values  []T     // fixed width: the whole values buffer
	offsets []int32 // strings: the whole offsets buffer
	bytes   []byte  // strings: the whole data buffer
	valid   []byte  // nil without NULLs
	offset  int     // the array's offset into its buffers
}

// chunkBuffers fills bufs (one per chunk of src) with column c's buffers
// and reports whether any holds a NULL. A gather's few chunks fit
// bufs on its stack (an allocation per column was a tenth of the gather).
func chunkBuffers[T uint8 | uint16 | uint32 | uint64](bufs []columnBuffers[T], src []columnSource, c int, strings bool) bool {
	anyNull := false
	for i, rec := range src {
		col := rec.Column(c)
		data := col.Data()
		b := &bufs[i]
		b.offset = data.Offset()
		if col.NullN() > 0 { // the array's count: a slice's data may not know it yet
			b.valid, anyNull = data.Buffers()[0].Bytes(), true
		}
		if strings {
			if buf := data.Buffers()[1]; buf != nil {
				b.offsets = arrow.GetData[int32](buf.Bytes())
			}
			if buf := data.Buffers()[2]; buf != nil {
				b.bytes = buf.Bytes()
			}
		} else if buf := data.Buffers()[1]; buf != nil {
			b.values = arrow.GetData[T](buf.Bytes())
		}
	}
	return anyNull
}

// stackChunks is how many chunks a gather reads with their buffers on
// its stack.
const stackChunks = 8

// gatherValidity returns the validity bitmap of the rows at places (nil
// and 0 when none is NULL) and their NULL count.
func gatherValidity[T uint8 | uint16 | uint32 | uint64](mem memory.Allocator, bufs []columnBuffers[T], places []place) (*memory.Buffer, int) {
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(len(places)))))
	bits := valid.Bytes()
	clear(bits)
	nulls := 0
	for i, p := range places {
		b := &bufs[p.chunk]
		if b.valid != nil && !bitutil.BitIsSet(b.valid, b.offset+int(p.row)) {
			nulls++
			continue
		}
		bitutil.SetBit(bits, i)
	}
	return valid, nulls
}

// gatherFixed gathers a fixed-width column by its bit width alone: a
// TIMESTAMP and a BIGINT are both 64-bit words here.
func gatherFixed[T uint8 | uint16 | uint32 | uint64](mem memory.Allocator, src []columnSource, c int, places []place, runs []run, dt arrow.DataType) arrow.Array {
	n := len(places)
	var onStack [stackChunks]columnBuffers[T]
	var bufs []columnBuffers[T]
	if len(src) <= stackChunks {
		bufs = onStack[:len(src)]
	} else {
		bufs = make([]columnBuffers[T], len(src))
	}
	anyNull := chunkBuffers(bufs, src, c, false)
	var width T
	values := memory.NewResizableBuffer(mem)
	values.Resize(n * int(sizeOf(width)))
	out := arrow.GetData[T](values.Bytes())[:n]
	if runs != nil {
		at := 0
		for _, r := range runs {
			b := &bufs[r.chunk]
			from := b.offset + int(r.row)
			at += copy(out[at:], b.values[from:from+int(r.n)])
		}
	} else {
		for i, p := range places {
			b := &bufs[p.chunk]
			out[i] = b.values[b.offset+int(p.row)]
		}
	}
	var valid *memory.Buffer
	nulls := 0
	if anyNull {
		valid, nulls = gatherValidity(mem, bufs, places)
	}
	return newArray(dt, n, []*memory.Buffer{valid, values}, nulls)
}

func sizeOf[T uint8 | uint16 | uint32 | uint64](T) uintptr {
	var v T
	switch any(v).(type) {
	case uint8:
		return 1
	case uint16:
		return 2
	case uint32:
		return 4
	}
	return 8
}

// gatherStrings gathers a STRING column: one pass sizes the data buffer,
// one copies offsets and bytes.
func gatherStrings(mem memory.Allocator, src []columnSource, c int, places []place, runs []run) arrow.Array {
	n := len(places)
	var onStack [stackChunks]columnBuffers[uint8]
	var bufs []columnBuffers[uint8]
	if len(src) <= stackChunks {
		bufs = onStack[:len(src)]
	} else {
		bufs = make([]columnBuffers[uint8], len(src))
	}
	anyNull := chunkBuffers(bufs, src, c, true)
	if runs != nil {
		return gatherStringRuns(mem, bufs, places, runs, anyNull)
	}
	size := 0
	for _, p := range places {
		b := &bufs[p.chunk]
		r := b.offset + int(p.row)
		size += int(b.offsets[r+1] - b.offsets[r])
	}
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize((n + 1) * 4)
	outOff := arrow.GetData[int32](offsets.Bytes())[:n+1]
	data := memory.NewResizableBuffer(mem)
	data.Resize(size + 8) // room for the last word of a short string
	outBytes := data.Bytes()
	at := 0
	for i, p := range places {
		b := &bufs[p.chunk]
		r := b.offset + int(p.row)
		outOff[i] = int32(at)
		from, to := int(b.offsets[r]), int(b.offsets[r+1])
		if to-from <= 8 && from+8 <= len(b.bytes) {
			// a short string as one word, its tail overwritten by the
			// next: the call to memmove cost more than the copy (the
			// gather of 8-byte strings and a BIGINT 12% faster)
			binary.LittleEndian.PutUint64(outBytes[at:], binary.LittleEndian.Uint64(b.bytes[from:]))
		} else {
			copy(outBytes[at:], b.bytes[from:to])
		}
		at += to - from
	}
	data.ResizeNoShrink(size)
	outOff[n] = int32(at)
	var valid *memory.Buffer
	nulls := 0
	if anyNull {
		valid, nulls = gatherValidity(mem, bufs, places)
	}
	return newArray(arrow.BinaryTypes.String, n, []*memory.Buffer{valid, offsets, data}, nulls)
}

// gatherStringRuns is gatherStrings by runs: a run's bytes in one copy,
// its offsets shifted.
func gatherStringRuns(mem memory.Allocator, bufs []columnBuffers[uint8], places []place, runs []run, anyNull bool) arrow.Array {
	n := len(places)
	size := 0
	for _, r := range runs {
		b := &bufs[r.chunk]
		from := b.offset + int(r.row)
		size += int(b.offsets[from+int(r.n)] - b.offsets[from])
	}
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize((n + 1) * 4)
	outOff := arrow.GetData[int32](offsets.Bytes())[:n+1]
	data := memory.NewResizableBuffer(mem)
	data.Resize(size)
	outBytes := data.Bytes()
	at, i := int32(0), 0
	for _, r := range runs {
		b := &bufs[r.chunk]
		from := b.offset + int(r.row)
		in := b.offsets[from : from+int(r.n)+1]
		for k, o := range in[:r.n] {
			outOff[i+k] = at + o - in[0]
		}
		i += int(r.n)
		at += int32(copy(outBytes[at:], b.bytes[in[0]:in[r.n]]))
	}
	outOff[n] = at
	var valid *memory.Buffer
	nulls := 0
	if anyNull {
		valid, nulls = gatherValidity(mem, bufs, places)
	}
	return newArray(arrow.BinaryTypes.String, n, []*memory.Buffer{valid, offsets, data}, nulls)
}

// newArray makes an array of bufs, releasing the references to them.
func newArray(dt arrow.DataType, n int, bufs []*memory.Buffer, nulls int) arrow.Array {
	if nulls == 0 && bufs[0] != nil {
		bufs[0].Release()
		bufs[0] = nil
	}
	data := array.NewData(dt, n, bufs, nil, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	defer data.Release()
	return array.MakeFromData(data)
}

// gatherRuns builds column c by one take per run of rows from one chunk,
// then joins the runs.
func gatherRuns(mem memory.Allocator, src []columnSource, c int, places []place) (arrow.Array, error) {
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	rows := make([]int32, 0, len(places))
	for i := 0; i < len(places); {
		ch := places[i].chunk
		rows = rows[:0]
		for ; i < len(places) && places[i].chunk == ch; i++ {
			rows = append(rows, places[i].row)
		}
		part, err := expr.Take(src[ch].Column(c), rows, mem)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	return array.Concatenate(parts, mem)
}
