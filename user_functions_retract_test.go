package wsql_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// retractSumAcc is sumAcc with Flink's retract method.
type retractSumAcc struct{ sumAcc }

func (a *retractSumAcc) Retract(arg arrow.Array, rows []int) error {
	c := arg.(*array.Int64)
	for _, i := range rows {
		if c.IsValid(i) {
			a.sum -= c.Value(i)
		}
	}
	return nil
}

func (a *retractSumAcc) Merge(other wsql.Accumulator) error {
	return a.sumAcc.Merge(&other.(*retractSumAcc).sumAcc)
}

// A user aggregate over an update stream (a GROUP BY over a GROUP BY)
// retracts with its accumulator's Retract method; one without the method
// is refused, as Flink refuses an aggregate function without retract.
func TestUserAggregateRetracts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, size := range []int{1, 2, 4096} {
		e := udfEngine(t, wsql.WithAllocator(mem), wsql.WithBatchSize(size))
		require.NoError(t, e.RegisterFunction("my_sum", mySum()))
		require.NoError(t, e.RegisterFunction("my_rsum", &wsql.AggregateFunction{Arg: arrow.PrimitiveTypes.Int64,
			Result: arrow.PrimitiveTypes.Int64, NewAccumulator: func() wsql.Accumulator { return &retractSumAcc{} }}))
		got, err := queryCSV(t, e, `SELECT MY_RSUM(total), SUM(total) FROM (SELECT usr, SUM(n) AS total FROM clicks GROUP BY usr)`)
		require.NoError(t, err)
		require.Equal(t, `+I,3,3
-U,3,3
+U,7,7
-U,7,7
+U,4,4
-U,4,4
+U,12,12
-U,12,12
+U,8,8
-U,8,8
+U,22,22
-U,22,22
+U,23,23
`, got, "batch size %d", size)

		_, err = queryCSV(t, e, `SELECT MY_SUM(total) FROM (SELECT usr, SUM(n) AS total FROM clicks GROUP BY usr)`)
		require.Error(t, err)
		require.EqualError(t, err, "1:8: MY_SUM over an update stream needs its accumulator to implement Retract(arg, rows), "+
			"as Flink needs an aggregate function's retract method")
		e.Close()
	}
}
