package windowop

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// stringRows are the results of a MIN or MAX of a STRING around each row
// of a batch: rowResults.vals hold codes, a row's index for the batch's
// value of that row, n plus an entry of kept for a value a slot held
// when the batch came. Nexmark q16's MAX(minute) of the channel and day.
type stringRows struct {
	n     int    // rows of the batch
	kept  []byte // the slots' values at the batch's start, copied
	ends  []int  // by entry: its end in kept
	code  []int64
	stamp []uint32 // by slot: the batch whose code it has
	batch uint32
	slots []int32       // the slots the batch touched
	col   *array.String // the batch's column, until its results are out

	out      []string // appendRowResults' values, reused
	outValid []bool
}

// value is the string of code c over the batch's column col.
func (sr *stringRows) value(col *array.String, c int64) string {
	if c < int64(sr.n) {
		return col.Value(int(c))
	}
	e, start := int(c)-sr.n, 0
	if e > 0 {
		start = sr.ends[e-1]
	}
	if start == sr.ends[e] {
		return ""
	}
	// kept only grows while the batch is folded: a string over it stays
	return unsafe.String(&sr.kept[start], sr.ends[e]-start)
}

// foldPickStrings is pickStrings (MIN and MAX) a row at a time. The
// slots' values change only after the batch is folded: until then the
// codes name the rows that hold them.
func (a *pickAcc) foldPickStrings(col *array.String, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	n := len(slots)
	r.grow(n, true)
	if r.strs == nil {
		r.strs = &stringRows{}
	}
	sr := r.strs
	sr.n, sr.kept, sr.ends, sr.slots = n, sr.kept[:0], sr.ends[:0], sr.slots[:0]
	sr.batch++
	if sr.batch == 0 { // wrapped: no slot may look stamped
		clear(sr.stamp)
		sr.batch = 1
	}
	for len(sr.stamp) < len(a.has) {
		sr.stamp = append(sr.stamp, 0)
		sr.code = append(sr.code, -1)
	}
	vals, has := r.vals, r.has
	nulls := col.NullN() > 0
	for _, row := range order {
		i, s := int(row), slots[row]
		if sr.stamp[s] != sr.batch {
			sr.stamp[s] = sr.batch
			sr.slots = append(sr.slots, s)
			sr.code[s] = -1
			if a.has[s] {
				sr.kept = append(sr.kept, a.strs[s]...)
				sr.ends = append(sr.ends, len(sr.kept))
				sr.code[s] = int64(n + len(sr.ends) - 1)
			}
		}
		cur := sr.code[s]
		vals[2*i], has[2*i] = cur, cur >= 0
		if passes(pass, i) && !(nulls && col.IsNull(i)) {
			if cur < 0 {
				cur = int64(i)
			} else if v, kept := col.Value(i), sr.value(col, cur); a.dir < 0 && v < kept || a.dir > 0 && v > kept {
				cur = int64(i)
			}
			if cur == int64(i) {
				sr.code[s] = cur
				changed[i] = true
			}
		}
		vals[2*i+1], has[2*i+1] = cur, cur >= 0
	}
	for _, s := range sr.slots {
		if c := sr.code[s]; c >= 0 && c < int64(n) {
			a.strs[s], a.has[s] = append(a.strs[s][:0], col.Value(int(c))...), true
		}
	}
	sr.col = col
}

// appendRowResults appends the results at picks: the integers of vals,
// or the strings their codes name where buildRowResults builds no column,
// gathered first and appended in one call that reserves the offsets and
// bytes once (appended one by one, the builder grew its bytes batch after
// batch, each time copied and zeroed).
func (a *pickAcc) appendRowResults(b array.Builder, picks []int32, r *rowResults) {
	if a.kind != valString {
		appendIntsAt(b, picks, r.has, r.vals)
		return
	}
	sr := r.strs
	sr.out, sr.outValid = sr.out[:0], sr.outValid[:0]
	for _, p := range picks {
		var v string
		if r.has[p] {
			v = sr.value(sr.col, r.vals[p])
		}
		sr.out = append(sr.out, v)
		sr.outValid = append(sr.outValid, r.has[p])
	}
	b.(*array.StringBuilder).AppendValues(sr.out, sr.outValid)
	clear(sr.out) // hold no strings of the batch beyond the call
	sr.col = nil
}

// buildRowResults is the STRING column of the results at picks, built in
// one pass over exactly sized buffers as stringKeys.column builds a key
// column (q16's MAX(minute): about 0.4 to 0.3 CPU-s at 10M events); nil for
// results of another kind, none, or over 2 GiB, which appendRowResults
// appends.
func (a *pickAcc) buildRowResults(mem memory.Allocator, picks []int32, r *rowResults) arrow.Array {
	if a.kind != valString || len(picks) == 0 {
		return nil
	}
	sr := r.strs
	total, nulls := 0, 0
	for _, p := range picks {
		if r.has[p] {
			total += len(sr.value(sr.col, r.vals[p]))
		} else {
			nulls++
		}
	}
	if total > math.MaxInt32 {
		return nil
	}
	n := len(picks)
	offsets, data, offs, bytes := stringColumnBuffers(mem, n, total)
	defer offsets.Release()
	defer data.Release()
	pos := 0
	for k, p := range picks {
		if r.has[p] {
			pos += copy(bytes[pos:], sr.value(sr.col, r.vals[p]))
		}
		offs[k+1] = int32(pos)
	}
	var valid *memory.Buffer
	if nulls > 0 {
		var bits []byte
		valid, bits = clearedBitmap(mem, n)
		defer valid.Release()
		for k, p := range picks {
			if r.has[p] {
				bitutil.SetBit(bits, k)
			}
		}
	}
	sr.col = nil
	d := array.NewData(a.dt, n, []*memory.Buffer{valid, offsets, data}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
