package wsql

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/function"
)

// Value is a Go type the row-at-a-time adapters (ScalarFunc1,
// ScalarFunc2, ScalarFunc3, AggregateFunc) take and give, with its SQL
// type: bool BOOLEAN, int8 TINYINT, int16 SMALLINT, int32 INT, int64
// BIGINT, float32 FLOAT, float64 DOUBLE, string STRING.
type Value = function.Value

// ScalarFunc1 is a scalar function of one argument computed by f, a row
// at a time: a NULL argument gives NULL without calling f. The
// column-at-a-time ScalarFunction is the faster form.
func ScalarFunc1[A, R Value](f func(A) R) *ScalarFunction {
	return &ScalarFunction{Args: []arrow.DataType{function.ArrowType[A]()}, Result: function.ArrowType[R](), Eval: function.RowScalar1(f)}
}

// ScalarFunc2 is ScalarFunc1 of two arguments.
func ScalarFunc2[A, B, R Value](f func(A, B) R) *ScalarFunction {
	return &ScalarFunction{Args: []arrow.DataType{function.ArrowType[A](), function.ArrowType[B]()}, Result: function.ArrowType[R](),
		Eval: function.RowScalar2(f)}
}

// ScalarFunc3 is ScalarFunc1 of three arguments.
func ScalarFunc3[A, B, C, R Value](f func(A, B, C) R) *ScalarFunction {
	return &ScalarFunction{Args: []arrow.DataType{function.ArrowType[A](), function.ArrowType[B](), function.ArrowType[C]()},
		Result: function.ArrowType[R](), Eval: function.RowScalar3(f)}
}

// AggregateFunc is an aggregate function of one argument over an
// accumulator value of type ACC (Flink's AggregateFunction<R, ACC>):
// create makes an empty one, accumulate folds in each non-NULL value of a
// window (NULLs are skipped, as the built-in aggregates skip them), merge
// folds in another accumulator and value is the result. A query that
// writes checkpoints saves ACC with encoding/gob, so ACC needs exported
// fields (or gob's own methods); otherwise such a query is refused.
func AggregateFunc[T, R Value, ACC any](create func() ACC, accumulate func(acc *ACC, v T), merge func(acc *ACC, other ACC), value func(acc ACC) R) *AggregateFunction {
	g := &function.RowAggregate[T, R, ACC]{Create: create, Accumulate: accumulate, Merge: merge, Value: value}
	return &AggregateFunction{Arg: function.ArrowType[T](), Result: function.ArrowType[R](), NewAccumulator: g.NewAccumulator}
}
