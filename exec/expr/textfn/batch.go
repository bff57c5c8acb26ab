package textfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// batch is a kernel's arguments evaluated over one record batch: STRING
// arguments read in place (constants without a column), others as
// columns, and the rows where every argument is valid.
type batch struct {
	n     int
	strs  []expr.StringArg
	cols  []arrow.Array // per argument; nil for a constant string
	valid []byte        // rows where no argument is NULL
}

func evalBatch(rec arrow.RecordBatch, mem memory.Allocator, args []expr.Expr) (*batch, error) {
	n := int(rec.NumRows())
	b := &batch{n: n, strs: make([]expr.StringArg, len(args)), cols: make([]arrow.Array, len(args))}
	b.valid = make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.SetBitsTo(b.valid, 0, int64(n), true)
	for i, x := range args {
		var err error
		if x.DataType().ID() == arrow.STRING {
			b.strs[i], b.cols[i], err = expr.EvalStringArg(x, rec, mem)
		} else {
			b.cols[i], err = x.Eval(rec, mem)
		}
		if err != nil {
			b.release()
			return nil, err
		}
		if b.cols[i] != nil {
			expr.AndValidityInto(b.valid, b.cols[i])
		}
	}
	return b, nil
}

func (b *batch) release() {
	for _, c := range b.cols {
		if c != nil {
			c.Release()
		}
	}
}

func (b *batch) ok(i int) bool { return bitutil.BitIsSet(b.valid, i) }

// ints is integer argument k as BIGINT values (the registry converts it).
func (b *batch) ints(k int) []int64 { return expr.ValuesOf[int64](b.cols[k]) }

// isValid reports whether argument k is not NULL at row i.
func (b *batch) isValid(k, i int) bool {
	c := b.cols[k]
	return c == nil || c.IsValid(i)
}

// stringOut builds a STRING result, checking the column's size limit.
type stringOut struct {
	b    *array.StringBuilder
	name string
	n    int
}

func newStringOut(mem memory.Allocator, n int, name string) *stringOut {
	b := array.NewStringBuilder(mem)
	b.Reserve(n)
	return &stringOut{b: b, name: name, n: n}
}

func (o *stringOut) add(v []byte) error {
	if int64(o.b.DataLen())+int64(len(v)) > expr.MaxStringColumnBytes {
		return fmt.Errorf("%w: the values of %s over a batch of %d rows pass 2 GiB, the most string data one column holds; make the strings shorter or the batches smaller",
			expr.ErrStringLimit, o.name, o.n)
	}
	o.b.BinaryBuilder.Append(v)
	return nil
}

func (o *stringOut) null() { o.b.AppendNull() }

func (o *stringOut) finish() arrow.Array {
	defer o.b.Release()
	return o.b.NewArray()
}

// fixedOut builds a fixed-width result with its own validity.
type fixedOut[T any] struct {
	vb, nb *memory.Buffer
	vals   []T
	valid  []byte
	nulls  int
}

func newFixedOut[T any](mem memory.Allocator, n int) *fixedOut[T] {
	o := &fixedOut[T]{}
	o.vb, o.vals = expr.NewValues[T](mem, n)
	o.nb, o.valid = expr.NewBits(mem, n)
	return o
}

func (o *fixedOut[T]) set(i int, v T) {
	o.vals[i] = v
	bitutil.SetBit(o.valid, i)
}

func (o *fixedOut[T]) finish(dt arrow.DataType, n int) arrow.Array {
	o.nulls = n - bitutil.CountSetBits(o.valid, 0, n)
	nb := o.nb
	if o.nulls == 0 {
		nb.Release()
		nb = nil
	}
	return expr.NewArray(dt, n, nb, o.nulls, o.vb)
}

// boolOut builds a BOOLEAN result.
type boolOut struct {
	vb, nb      *memory.Buffer
	vals, valid []byte
}

func newBoolOut(mem memory.Allocator, n int) *boolOut {
	o := &boolOut{}
	o.vb, o.vals = expr.NewBits(mem, n)
	o.nb, o.valid = expr.NewBits(mem, n)
	return o
}

func (o *boolOut) set(i int, v bool) {
	if v {
		bitutil.SetBit(o.vals, i)
	}
	bitutil.SetBit(o.valid, i)
}

func (o *boolOut) finish(n int) arrow.Array {
	nulls := n - bitutil.CountSetBits(o.valid, 0, n)
	nb := o.nb
	if nulls == 0 {
		nb.Release()
		nb = nil
	}
	return expr.NewArray(arrow.FixedWidthTypes.Boolean, n, nb, nulls, o.vb)
}

func argsString(name string, args []expr.Expr) string {
	s := name + "("
	for i, a := range args {
		if i > 0 {
			s += ", "
		}
		s += a.String()
	}
	return s + ")"
}

// rawStrings builds a STRING column straight into its offsets, data and
// validity buffers: the per-row path of the hot kernels, without the
// builder's checks per value.
type rawStrings struct {
	mem     memory.Allocator
	name    string
	n, row  int
	offsets []int32
	ob, nb  *memory.Buffer
	db      *memory.Buffer
	data    []byte
	size    int
	valid   []byte
	nulls   int
}

func newRawStrings(mem memory.Allocator, n int, name string, dataHint int) *rawStrings {
	o := &rawStrings{mem: mem, name: name, n: n}
	o.ob, o.offsets = expr.NewValues[int32](mem, n+1)
	o.offsets[0] = 0
	o.nb, o.valid = expr.NewBits(mem, n)
	bitutil.SetBitsTo(o.valid, 0, int64(n), true) // null clears its row's bit
	o.db = memory.NewResizableBuffer(mem)
	o.db.Resize(max(dataHint, 64))
	o.data = o.db.Bytes()
	return o
}

// add appends row i's value (rows come in order).
func (o *rawStrings) add(v string) error {
	if o.size+len(v) > len(o.data) {
		if err := o.grow(len(v)); err != nil {
			return err
		}
	}
	o.size += copy(o.data[o.size:], v)
	o.row++
	o.offsets[o.row] = int32(o.size)
	return nil
}

// grow makes room for k more bytes.
func (o *rawStrings) grow(k int) error {
	if int64(o.size)+int64(k) > expr.MaxStringColumnBytes {
		return fmt.Errorf("%w: the values of %s over a batch of %d rows pass 2 GiB, the most string data one column holds; make the strings shorter or the batches smaller",
			expr.ErrStringLimit, o.name, o.n)
	}
	o.db.Resize(min(max(2*len(o.data), o.size+k), expr.MaxStringColumnBytes))
	o.data = o.db.Bytes()
	return nil
}

func (o *rawStrings) null() {
	bitutil.ClearBit(o.valid, o.row)
	o.nulls++
	o.row++
	o.offsets[o.row] = int32(o.size)
}

func (o *rawStrings) finish() arrow.Array {
	o.db.Resize(o.size)
	nb := o.nb
	if o.nulls == 0 {
		nb.Release()
		nb = nil
	}
	return expr.NewArray(arrow.BinaryTypes.String, o.n, nb, o.nulls, o.ob, o.db)
}

func (o *rawStrings) release() {
	o.ob.Release()
	o.nb.Release()
	o.db.Release()
}

// firstCol is the first argument's column, nil for none or a constant.
func firstCol(b *batch) arrow.Array {
	if len(b.cols) == 0 {
		return nil
	}
	return b.cols[0]
}
