package textfn

import (
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// splitIndexColumn is SPLIT_INDEX of a STRING column by a constant
// separator, as splitIndex computes it, with the rows read straight from
// the column's offsets and data and the fields written straight into the
// result's buffers: a call per row through stringRow, with its reads of
// the arguments, was half of SPLIT_INDEX's time (Nexmark q22). ok is
// false when the arguments have another form.
func splitIndexColumn(b *batch, mem memory.Allocator) (arrow.Array, bool, error) {
	col, isCol := b.cols[0].(*array.String)
	if !isCol || !b.strs[1].IsConst() || b.strs[1].At(0) == "" {
		return nil, false, nil
	}
	sep := b.strs[1].At(0)
	n := b.n
	offs := col.ValueOffsets()
	data := col.ValueBytes()
	base := offs[0]
	text := unsafe.String(unsafe.SliceData(data), len(data))
	ks := b.ints(2)
	// A field is usually much shorter than its row: the data buffer
	// starts at 8 bytes a row (zeroing a buffer the size of the column's
	// data was a tenth of q22) and grows when it must.
	out := newRawStrings(mem, n, "SPLIT_INDEX", min(len(data), 8*n, expr.MaxStringColumnBytes))
	anyNull := bitutil.CountSetBits(b.valid, 0, n) < n
	for i := range n {
		if anyNull && !b.ok(i) {
			out.null()
			continue
		}
		field, ok := splitField(text[offs[i]-base:offs[i+1]-base], sep, ks[i])
		if !ok {
			out.null()
			continue
		}
		if out.size+len(field) > len(out.data) {
			if err := out.grow(len(field)); err != nil {
				out.release()
				return nil, true, err
			}
		}
		out.size += copy(out.data[out.size:], field)
		out.row++
		out.offsets[out.row] = int32(out.size)
	}
	return out.finish(), true, nil
}

// splitField is field k (from 0) of s split by the non-empty sep, as
// splitIndex: false when k < 0, s is empty or s has fewer fields.
func splitField(s, sep string, k int64) (string, bool) {
	if k < 0 || s == "" {
		return "", false
	}
	if len(sep) == 1 {
		c := sep[0]
		for ; k > 0; k-- {
			end := strings.IndexByte(s, c)
			if end < 0 {
				return "", false
			}
			s = s[end+1:]
		}
		if end := strings.IndexByte(s, c); end >= 0 {
			return s[:end], true
		}
		return s, true
	}
	for ; k > 0; k-- {
		end := strings.Index(s, sep)
		if end < 0 {
			return "", false
		}
		s = s[end+len(sep):]
	}
	if end := strings.Index(s, sep); end >= 0 {
		return s[:end], true
	}
	return s, true
}
