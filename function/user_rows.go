package function

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/windowop"
)

// Row-at-a-time adapters: a plain Go function of Go values run over a
// batch's Arrow columns. Each batch reads its columns' buffers in place
// (numbers as typed slices, strings without copying) and builds the result
// column once; the Go function is called once per row.

// Value is a Go type the row adapters read and write, with its SQL type:
// bool BOOLEAN, int8 TINYINT, int16 SMALLINT, int32 INT, int64 BIGINT,
// float32 FLOAT, float64 DOUBLE, string STRING.
type Value interface {
	bool | int8 | int16 | int32 | int64 | float32 | float64 | string
}

// ArrowType is the Arrow type of T's SQL type.
func ArrowType[T Value]() arrow.DataType {
	var z T
	switch any(z).(type) {
	case bool:
		return arrow.FixedWidthTypes.Boolean
	case int8:
		return arrow.PrimitiveTypes.Int8
	case int16:
		return arrow.PrimitiveTypes.Int16
	case int32:
		return arrow.PrimitiveTypes.Int32
	case int64:
		return arrow.PrimitiveTypes.Int64
	case float32:
		return arrow.PrimitiveTypes.Float32
	case float64:
		return arrow.PrimitiveTypes.Float64
	}
	return arrow.BinaryTypes.String
}

// reader reads the values of a column of T's Arrow type.
type reader[T Value] struct {
	nums  []T
	strs  *array.String
	bools *array.Boolean
}

func readerOf[T Value](a arrow.Array) reader[T] {
	switch a := a.(type) {
	case *array.String:
		return reader[T]{strs: a}
	case *array.Boolean:
		return reader[T]{bools: a}
	}
	return reader[T]{nums: expr.ValuesOf[T](a)}
}

func (r reader[T]) at(i int) T {
	switch {
	case r.strs != nil:
		s := r.strs.Value(i)
		return *(*T)(unsafe.Pointer(&s)) // T is string
	case r.bools != nil:
		b := r.bools.Value(i)
		return *(*T)(unsafe.Pointer(&b)) // T is bool
	}
	return r.nums[i]
}

// rowScalar computes a column of R: value(i) for every row where no
// argument is NULL, NULL elsewhere.
func rowScalar[R Value](mem memory.Allocator, args []arrow.Array, value func(i int) R) (_ arrow.Array, err error) {
	n := args[0].Len()
	validity, nulls := expr.AndValidity(mem, n, args...)
	var valid []byte
	if validity != nil {
		valid = validity.Bytes()
		defer validity.Release() // NewArray takes its own reference
	}
	dt := ArrowType[R]()
	switch dt.ID() {
	case arrow.STRING, arrow.BOOL:
		vals := make([]R, n)
		ok := make([]bool, n)
		for i := range n {
			if ok[i] = valid == nil || bitutil.BitIsSet(valid, i); ok[i] {
				vals[i] = value(i)
			}
		}
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		if dt.ID() == arrow.STRING {
			b.(*array.StringBuilder).AppendValues(*(*[]string)(unsafe.Pointer(&vals)), ok)
		} else {
			b.(*array.BooleanBuilder).AppendValues(*(*[]bool)(unsafe.Pointer(&vals)), ok)
		}
		return b.NewArray(), nil
	}
	buf, out := expr.NewValues[R](mem, n)
	defer buf.Release() // also when value panics
	for i := range out {
		if valid == nil || bitutil.BitIsSet(valid, i) {
			out[i] = value(i)
		}
	}
	if validity != nil {
		validity.Retain()
	}
	buf.Retain()
	return expr.NewArray(dt, n, validity, nulls, buf), nil
}

// RowScalar1 runs f over a column; a NULL argument gives NULL.
func RowScalar1[A, R Value](f func(A) R) ScalarEval {
	return func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error) {
		a := readerOf[A](args[0])
		return rowScalar(mem, args, func(i int) R { return f(a.at(i)) })
	}
}

// RowScalar2 runs f over two columns; a NULL argument gives NULL.
func RowScalar2[A, B, R Value](f func(A, B) R) ScalarEval {
	return func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error) {
		a, b := readerOf[A](args[0]), readerOf[B](args[1])
		return rowScalar(mem, args, func(i int) R { return f(a.at(i), b.at(i)) })
	}
}

// RowScalar3 runs f over three columns; a NULL argument gives NULL.
func RowScalar3[A, B, C, R Value](f func(A, B, C) R) ScalarEval {
	return func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error) {
		a, b, c := readerOf[A](args[0]), readerOf[B](args[1]), readerOf[C](args[2])
		return rowScalar(mem, args, func(i int) R { return f(a.at(i), b.at(i), c.at(i)) })
	}
}

// RowAggregate is an aggregate of Go functions over an accumulator value
// (Flink's AggregateFunction<R, ACC>): accumulate gets each non-NULL
// value, merge folds another accumulator in, value is the result. ACC is
// saved in checkpoints with encoding/gob.
type RowAggregate[T, R Value, ACC any] struct {
	Create     func() ACC
	Accumulate func(acc *ACC, v T)
	Merge      func(acc *ACC, other ACC)
	Value      func(acc ACC) R
}

// NewAccumulator returns an accumulator holding Create().
func (g *RowAggregate[T, R, ACC]) NewAccumulator() windowop.UserAccumulator {
	return &rowAcc[T, R, ACC]{g: g, acc: g.Create()}
}

type rowAcc[T, R Value, ACC any] struct {
	g   *RowAggregate[T, R, ACC]
	acc ACC
}

func (a *rowAcc[T, R, ACC]) Accumulate(arg arrow.Array, rows []int) error {
	r := readerOf[T](arg)
	for _, i := range rows {
		if arg.IsValid(i) {
			a.g.Accumulate(&a.acc, r.at(i))
		}
	}
	return nil
}

func (a *rowAcc[T, R, ACC]) Merge(other windowop.UserAccumulator) error {
	a.g.Merge(&a.acc, other.(*rowAcc[T, R, ACC]).acc)
	return nil
}

func (a *rowAcc[T, R, ACC]) AppendValue(b array.Builder) error {
	v := a.g.Value(a.acc)
	p := unsafe.Pointer(&v) // b is a builder of R's Arrow type
	switch b := b.(type) {
	case *array.StringBuilder:
		b.Append(*(*string)(p))
	case *array.BooleanBuilder:
		b.Append(*(*bool)(p))
	case *array.Int8Builder:
		b.Append(*(*int8)(p))
	case *array.Int16Builder:
		b.Append(*(*int16)(p))
	case *array.Int32Builder:
		b.Append(*(*int32)(p))
	case *array.Int64Builder:
		b.Append(*(*int64)(p))
	case *array.Float32Builder:
		b.Append(*(*float32)(p))
	case *array.Float64Builder:
		b.Append(*(*float64)(p))
	default:
		return fmt.Errorf("a %T is not a builder of %s", b, ArrowType[R]())
	}
	return nil
}

func (a *rowAcc[T, R, ACC]) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&a.acc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (a *rowAcc[T, R, ACC]) UnmarshalBinary(b []byte) error {
	return gob.NewDecoder(bytes.NewReader(b)).Decode(&a.acc)
}
