package expr

import (
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Compare is L op R for op one of = <> < <= > >=, over operands of one type
// (the planner casts them to their common type): numbers, STRING (byte
// order of UTF-8, which is code point order), BOOLEAN (FALSE < TRUE), DATE,
// TIME, TIMESTAMP, DECIMAL of one scale. NULL on either side gives NULL.
// Floats compare as Java's primitive operators do: NaN is unequal to
// everything.
type Compare struct {
	Op   string
	L, R Expr
}

func (e *Compare) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *Compare) String() string           { return fmt.Sprintf("(%s %s %s)", e.L, e.Op, e.R) }
func (e *Compare) children() []Expr         { return []Expr{e.L, e.R} }

// The kernels know =, < and <=; the other operators swap the operands or
// invert the result.
const (
	cmpEq = iota
	cmpLt
	cmpLe
)

func (e *Compare) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	if x, lit, op, ok := e.constantSide(); ok {
		return e.evalScalar(rec, mem, x, lit, op)
	}
	in, err := evalAll(rec, mem, e.L, e.R)
	if err != nil {
		return nil, err
	}
	defer ReleaseAll(in)
	l, r := in[0], in[1]
	op, invert := cmpEq, false
	switch e.Op {
	case "=":
	case "<>", "!=":
		invert = true
	case "<":
		op = cmpLt
	case "<=":
		op = cmpLe
	case ">":
		op, l, r = cmpLt, r, l
	case ">=":
		op, l, r = cmpLe, r, l
	default:
		return nil, fmt.Errorf("unknown comparison %s", e.Op)
	}
	n := l.Len()
	vb, out := NewBits(mem, n)
	switch la := l.(type) {
	case *array.String:
		compareStrings(op, la, r.(*array.String), out)
	case *array.Binary:
		compareBinary(op, la, r.(*array.Binary), out)
	case *array.Boolean:
		compareBools(op, la, r.(*array.Boolean), out)
	case *array.Decimal128:
		compareDecimals(op, la.Values(), r.(*array.Decimal128).Values(), out)
	default:
		switch storageID(l.DataType()) {
		case arrow.INT8:
			compareNums(op, valuesOf[int8](l), valuesOf[int8](r), out)
		case arrow.INT16:
			compareNums(op, valuesOf[int16](l), valuesOf[int16](r), out)
		case arrow.INT32:
			compareNums(op, valuesOf[int32](l), valuesOf[int32](r), out)
		case arrow.INT64:
			compareNums(op, valuesOf[int64](l), valuesOf[int64](r), out)
		case arrow.FLOAT32:
			compareNums(op, valuesOf[float32](l), valuesOf[float32](r), out)
		case arrow.FLOAT64:
			compareNums(op, valuesOf[float64](l), valuesOf[float64](r), out)
		default:
			vb.Release()
			return nil, fmt.Errorf("cannot compare %s", l.DataType())
		}
	}
	if invert {
		for i := range out {
			out[i] = ^out[i]
		}
	}
	validity, nulls := andValidity(mem, n, l, r)
	return NewArray(arrow.FixedWidthTypes.Boolean, n, validity, nulls, vb), nil
}

// compareNums packs eight results into a byte at a time.
func compareNums[T cmp.Ordered](op int, l, r []T, out []byte) {
	n := len(l)
	r = r[:n]
	full := n &^ 7
	switch op {
	case cmpEq:
		for i := 0; i < full; i += 8 {
			out[i>>3] = b2u(l[i] == r[i]) | b2u(l[i+1] == r[i+1])<<1 | b2u(l[i+2] == r[i+2])<<2 | b2u(l[i+3] == r[i+3])<<3 |
				b2u(l[i+4] == r[i+4])<<4 | b2u(l[i+5] == r[i+5])<<5 | b2u(l[i+6] == r[i+6])<<6 | b2u(l[i+7] == r[i+7])<<7
		}
		for i := full; i < n; i++ {
			out[i>>3] |= b2u(l[i] == r[i]) << (i & 7)
		}
	case cmpLt:
		for i := 0; i < full; i += 8 {
			out[i>>3] = b2u(l[i] < r[i]) | b2u(l[i+1] < r[i+1])<<1 | b2u(l[i+2] < r[i+2])<<2 | b2u(l[i+3] < r[i+3])<<3 |
				b2u(l[i+4] < r[i+4])<<4 | b2u(l[i+5] < r[i+5])<<5 | b2u(l[i+6] < r[i+6])<<6 | b2u(l[i+7] < r[i+7])<<7
		}
		for i := full; i < n; i++ {
			out[i>>3] |= b2u(l[i] < r[i]) << (i & 7)
		}
	case cmpLe:
		for i := 0; i < full; i += 8 {
			out[i>>3] = b2u(l[i] <= r[i]) | b2u(l[i+1] <= r[i+1])<<1 | b2u(l[i+2] <= r[i+2])<<2 | b2u(l[i+3] <= r[i+3])<<3 |
				b2u(l[i+4] <= r[i+4])<<4 | b2u(l[i+5] <= r[i+5])<<5 | b2u(l[i+6] <= r[i+6])<<6 | b2u(l[i+7] <= r[i+7])<<7
		}
		for i := full; i < n; i++ {
			out[i>>3] |= b2u(l[i] <= r[i]) << (i & 7)
		}
	}
}

func compareStrings(op int, l, r *array.String, out []byte) {
	for i := 0; i < l.Len(); i++ {
		c := cmp.Compare(l.Value(i), r.Value(i))
		if op == cmpEq && c == 0 || op == cmpLt && c < 0 || op == cmpLe && c <= 0 {
			out[i>>3] |= 1 << (i & 7)
		}
	}
}

func compareDecimals(op int, l, r []decimal128.Num, out []byte) {
	for i := range l {
		c := l[i].Cmp(r[i])
		if op == cmpEq && c == 0 || op == cmpLt && c < 0 || op == cmpLe && c <= 0 {
			out[i>>3] |= 1 << (i & 7)
		}
	}
}

func compareBools(op int, l, r *array.Boolean, out []byte) {
	n := l.Len()
	lv := alignedBits(l.Data().Buffers()[1].Bytes(), l.Data().Offset(), n)
	rv := alignedBits(r.Data().Buffers()[1].Bytes(), r.Data().Offset(), n)
	for i := range bitutil.BytesForBits(int64(n)) {
		switch op {
		case cmpEq:
			out[i] = ^(lv[i] ^ rv[i])
		case cmpLt:
			out[i] = ^lv[i] & rv[i]
		case cmpLe:
			out[i] = ^lv[i] | rv[i]
		}
	}
}
