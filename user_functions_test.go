package wsql_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/sql"
)

// clicksCSV is the input of the user-defined function tests.
const clicksCSV = `2024-03-01 09:00:01,alice,3
2024-03-01 09:00:20,bob,4
2024-03-01 09:00:40,alice,
2024-03-01 09:01:10,alice,5
2024-03-01 09:01:30,bob,10
2024-03-01 09:02:30,carol,1
`

// udfEngine is an engine with the table clicks over clicksCSV.
func udfEngine(t *testing.T, opts ...wsql.Option) *wsql.Engine {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "clicks.csv"), []byte(clicksCSV), 0o644))
	e := wsql.New(opts...)
	require.NoError(t, e.Exec(context.Background(), fmt.Sprintf(`CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, n BIGINT,
	  WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, filepath.Join(dir, "clicks.csv"))))
	return e
}

// queryCSV runs src and returns its rows as CSV lines, without the header.
func queryCSV(t *testing.T, e *wsql.Engine, src string) (string, error) {
	t.Helper()
	rows, err := e.Query(context.Background(), src)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b bytes.Buffer
	w := wsql.NewCSVWriter(&b, rows.Schema(), time.UTC)
	for rows.Next() {
		require.NoError(t, w.WriteBatch(rows.RecordBatch()))
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	require.NoError(t, w.Close())
	_, body, _ := strings.Cut(b.String(), "\n")
	return body, nil
}

// twice is a column-at-a-time scalar: BIGINT → BIGINT, n * 2.
func twice() *wsql.ScalarFunction {
	return &wsql.ScalarFunction{
		Args:   []arrow.DataType{arrow.PrimitiveTypes.Int64},
		Result: arrow.PrimitiveTypes.Int64,
		Eval: func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error) {
			in := args[0].(*array.Int64)
			b := array.NewInt64Builder(mem)
			defer b.Release()
			for i := range in.Len() {
				if in.IsNull(i) {
					b.AppendNull()
				} else {
					b.Append(2 * in.Value(i))
				}
			}
			return b.NewArray(), nil
		},
	}
}

// sumAcc is a column-at-a-time accumulator of a BIGINT sum, saved in
// checkpoints as 8 bytes.
type sumAcc struct {
	sum int64
	any bool
}

func (a *sumAcc) Accumulate(arg arrow.Array, rows []int) error {
	in := arg.(*array.Int64)
	for _, i := range rows {
		if in.IsValid(i) {
			a.sum += in.Value(i)
			a.any = true
		}
	}
	return nil
}

func (a *sumAcc) Merge(other wsql.Accumulator) error {
	o := other.(*sumAcc)
	a.sum += o.sum
	a.any = a.any || o.any
	return nil
}

func (a *sumAcc) AppendValue(b array.Builder) error {
	if !a.any {
		b.AppendNull()
		return nil
	}
	b.(*array.Int64Builder).Append(a.sum)
	return nil
}

func (a *sumAcc) MarshalBinary() ([]byte, error) {
	b := binary.AppendVarint(nil, a.sum)
	if a.any {
		b = append(b, 1)
	}
	return b, nil
}

func (a *sumAcc) UnmarshalBinary(b []byte) error {
	v, n := binary.Varint(b)
	if n <= 0 {
		return errors.New("bad sum")
	}
	a.sum, a.any = v, len(b) > n
	return nil
}

func mySum() *wsql.AggregateFunction {
	return &wsql.AggregateFunction{Arg: arrow.PrimitiveTypes.Int64, Result: arrow.PrimitiveTypes.Int64,
		NewAccumulator: func() wsql.Accumulator { return &sumAcc{} }}
}

// meanAcc is AggregateFunc's accumulator value: exported fields, so gob
// saves it.
type meanAcc struct{ Sum, Count int64 }

func myMean() *wsql.AggregateFunction {
	return wsql.AggregateFunc(func() meanAcc { return meanAcc{} },
		func(acc *meanAcc, v int64) { acc.Sum += v; acc.Count++ },
		func(acc *meanAcc, o meanAcc) { acc.Sum += o.Sum; acc.Count += o.Count },
		func(acc meanAcc) float64 {
			if acc.Count == 0 {
				return 0
			}
			return float64(acc.Sum) / float64(acc.Count)
		})
}

func TestUserScalarFunctions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := udfEngine(t, wsql.WithAllocator(mem), wsql.WithBatchSize(4))
	defer e.Close()
	require.NoError(t, e.RegisterFunction("twice", twice()))
	require.NoError(t, e.RegisterFunction("greet", wsql.ScalarFunc2(func(s string, n int64) string {
		return fmt.Sprintf("%s:%d", strings.ToUpper(s), n)
	})))
	require.NoError(t, e.RegisterFunction("is_big", wsql.ScalarFunc1(func(n float64) bool { return n > 4 })))
	got, err := queryCSV(t, e, `SELECT usr, TWICE(n), Twice(7), greet(usr, n), IS_BIG(n), TWICE(CAST(NULL AS BIGINT)) FROM clicks`)
	require.NoError(t, err)
	require.Equal(t, `alice,6,14,ALICE:3,false,
bob,8,14,BOB:4,false,
alice,,14,,,
alice,10,14,ALICE:5,true,
bob,20,14,BOB:10,true,
carol,2,14,CAROL:1,false,
`, got)

	// in a windowed query, and over an INT argument cast to BIGINT
	got, err = queryCSV(t, e, `SELECT usr, TWICE(COUNT(*)), SUM(TWICE(n)) FROM clicks
	  GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE) HAVING TWICE(CAST(COUNT(*) AS INT)) > 2`)
	require.NoError(t, err)
	require.Equal(t, "alice,4,6\n", got)
}

func TestUserAggregateFunctions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, parallelism := range []int{1, 3} {
		e := udfEngine(t, wsql.WithAllocator(mem), wsql.WithBatchSize(2), wsql.WithParallelism(parallelism))
		require.NoError(t, e.RegisterFunction("my_sum", mySum()))
		require.NoError(t, e.RegisterFunction("my_mean", myMean()))
		// TUMBLE
		got, err := queryCSV(t, e, `SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE), MY_SUM(n), SUM(n), MY_MEAN(n), AVG(n) FROM clicks
		  GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`)
		require.NoError(t, err)
		require.ElementsMatch(t, lines(`alice,2024-03-01 09:00:00.000,3,3,3.0,3
bob,2024-03-01 09:00:00.000,4,4,4.0,4
alice,2024-03-01 09:01:00.000,5,5,5.0,5
bob,2024-03-01 09:01:00.000,10,10,10.0,10
carol,2024-03-01 09:02:00.000,1,1,1.0,1`), lines(got))
		// HOP merges panes; SESSION merges sessions
		for _, window := range []string{"HOP(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE)", "SESSION(ts, INTERVAL '50' SECOND)"} {
			got, err = queryCSV(t, e, `SELECT usr, MY_SUM(n), SUM(n), MY_MEAN(n + 1) FROM clicks GROUP BY usr, `+window)
			require.NoError(t, err, window)
			for _, l := range lines(got) {
				f := strings.Split(l, ",")
				require.Equal(t, f[1], f[2], "%s: %s", window, l)
			}
			require.NotEmpty(t, got)
		}
		// FILTER (WHERE ...) as on the built-ins
		got, err = queryCSV(t, e, `SELECT MY_SUM(n) FILTER (WHERE usr <> 'bob'), SUM(n) FILTER (WHERE usr <> 'bob') FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' HOUR)`)
		require.NoError(t, err)
		require.Equal(t, "9,9\n", got)
		e.Close()
	}
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func TestUserFunctionStatements(t *testing.T) {
	e := udfEngine(t)
	defer e.Close()
	require.NoError(t, e.RegisterFunction("twice", twice()))
	require.NoError(t, e.RegisterFunction("my_sum", mySum()))
	show := func(what string) string {
		var b bytes.Buffer
		require.NoError(t, e.Run(context.Background(), "SHOW "+what, wsql.Output{NewWriter: func(i wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewCSVWriter(&b, i.Schema, time.UTC), nil
		}}))
		return b.String()
	}
	require.Equal(t, "function name\nMY_SUM\nTWICE\n", show("USER FUNCTIONS"))
	require.Contains(t, show("FUNCTIONS"), "\nTWICE\n")
	require.Contains(t, show("FUNCTIONS"), "\nUPPER\n")
	require.Contains(t, e.FunctionNames(), "MY_SUM")

	run := func(src string) error { return e.Run(context.Background(), src, wsql.Output{}) }
	require.NoError(t, run(`CREATE TEMPORARY SYSTEM FUNCTION double_it AS 'twice'; CREATE FUNCTION IF NOT EXISTS double_it AS 'TWICE'`))
	require.Equal(t, "function name\nDOUBLE_IT\nMY_SUM\nTWICE\n", show("USER FUNCTIONS"))
	got, err := queryCSV(t, e, `SELECT DOUBLE_IT(n) FROM clicks WHERE usr = 'carol'`)
	require.NoError(t, err)
	require.Equal(t, "2\n", got)
	require.NoError(t, run(`DROP FUNCTION double_it; DROP TEMPORARY FUNCTION IF EXISTS double_it`))
	require.Equal(t, "function name\nMY_SUM\nTWICE\n", show("USER FUNCTIONS"))
	// a Flink script's Java class finds the Go function of its last part
	require.NoError(t, run(`CREATE FUNCTION double_it AS 'com.example.udf.Twice'`))
	got, err = queryCSV(t, e, `SELECT DOUBLE_IT(n) FROM clicks WHERE usr = 'carol'`)
	require.NoError(t, err)
	require.Equal(t, "2\n", got)
	require.NoError(t, run(`DROP FUNCTION double_it`))

	errs := map[string]string{
		"CREATE FUNCTION f AS 'twise'":                                            "1:22: no Go function is registered as 'twise': a Go program registers one with Engine.RegisterFunction; did you mean TWICE?",
		"CREATE FUNCTION upper AS 'twice'":                                        "1:17: UPPER is a built-in function: a user-defined function needs another name",
		"CREATE FUNCTION my_sum AS 'twice'":                                       "1:17: function MY_SUM already exists",
		"DROP FUNCTION upper":                                                     "1:15: UPPER is a built-in function and cannot be dropped",
		"DROP FUNCTION twise":                                                     "1:15: function twise does not exist; did you mean TWICE?",
		"CREATE FUNCTION f AS 'twice' LANGUAGE JAVA":                              "1:30: LANGUAGE is not supported: wsql's functions are Go functions the program registered (Engine.RegisterFunction)",
		"SELECT TWICE(usr) FROM clicks":                                           "1:14: TWICE expects BIGINT for arg1, got STRING",
		"SELECT TWICE(n, n) FROM clicks":                                          "1:8: TWICE takes 1 argument, got 2",
		"SELECT MY_SUM(usr) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)": "1:15: MY_SUM expects a BIGINT argument, got STRING",
	}
	for src, want := range errs {
		err := run(src)
		require.Error(t, err, src)
		var se *sql.Error
		require.True(t, errors.As(err, &se), "%s: %v", src, err)
		require.Equal(t, want, se.Pos.String()+": "+se.Msg, src)
	}
	require.ErrorContains(t, e.RegisterFunction("Upper", twice()), "UPPER is a built-in function: a user-defined function needs another name")
	require.ErrorContains(t, e.RegisterFunction("twice", twice()), "function TWICE already exists")
	require.ErrorContains(t, e.RegisterFunction("1x", twice()), `"1x" is not a function name`)
}

// A user function's error or panic stops the query with an error naming
// the function; CASE runs the function only on the rows that reach it.
func TestUserFunctionErrorsStopTheQuery(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := udfEngine(t, wsql.WithAllocator(mem), wsql.WithBatchSize(2))
	defer e.Close()
	require.NoError(t, e.RegisterFunction("checked", &wsql.ScalarFunction{Args: []arrow.DataType{arrow.PrimitiveTypes.Int64}, Result: arrow.PrimitiveTypes.Int64,
		Eval: func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error) {
			if args[0].NullN() > 0 {
				return nil, errors.New("no NULLs, please")
			}
			args[0].Retain()
			return args[0], nil
		}}))
	require.NoError(t, e.RegisterFunction("explode", wsql.ScalarFunc1(func(n int64) int64 {
		if n == 10 {
			panic("ten")
		}
		return n
	})))
	require.NoError(t, e.RegisterFunction("wrong_type", &wsql.ScalarFunction{Args: []arrow.DataType{arrow.PrimitiveTypes.Int64}, Result: arrow.BinaryTypes.String,
		Eval: func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error) {
			args[0].Retain()
			return args[0], nil
		}}))
	_, err := queryCSV(t, e, "SELECT CHECKED(n) FROM clicks")
	require.ErrorContains(t, err, "function CHECKED: no NULLs, please")
	got, err := queryCSV(t, e, "SELECT CASE WHEN n IS NULL THEN -1 ELSE CHECKED(n) END FROM clicks")
	require.NoError(t, err)
	require.Equal(t, "3\n4\n-1\n5\n10\n1\n", got)
	_, err = queryCSV(t, e, "SELECT EXPLODE(n) FROM clicks")
	require.ErrorContains(t, err, "function EXPLODE panicked: ten")
	_, err = queryCSV(t, e, "SELECT WRONG_TYPE(n) FROM clicks")
	require.ErrorContains(t, err, "function WRONG_TYPE returned int64, not its declared utf8")

	failing := &wsql.AggregateFunction{Arg: arrow.PrimitiveTypes.Int64, Result: arrow.PrimitiveTypes.Int64,
		NewAccumulator: func() wsql.Accumulator { return &failingAcc{} }}
	require.NoError(t, e.RegisterFunction("failing", failing))
	_, err = queryCSV(t, e, "SELECT FAILING(n) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.ErrorContains(t, err, "function FAILING panicked: no accumulating today")
}

type failingAcc struct{ sumAcc }

func (*failingAcc) Accumulate(arrow.Array, []int) error { panic("no accumulating today") }

// Functions registered, created and dropped while queries that call them
// run on other goroutines: each query resolves its calls once, when
// planned (run with -race).
func TestUserFunctionsConcurrentUse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := udfEngine(t, wsql.WithAllocator(mem), wsql.WithBatchSize(2), wsql.WithParallelism(2))
	defer e.Close()
	require.NoError(t, e.RegisterFunction("twice", twice()))
	require.NoError(t, e.RegisterFunction("my_sum", mySum()))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5 {
				got, err := queryCSV(t, e, "SELECT usr, MY_SUM(TWICE(n)) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' HOUR)")
				require.NoError(t, err)
				require.ElementsMatch(t, []string{"alice,16", "bob,28", "carol,2"}, lines(got))
				name := fmt.Sprintf("f%d_%d", g, i)
				require.NoError(t, e.Exec(context.Background(), "CREATE FUNCTION "+name+" AS 'twice'"))
				require.Contains(t, e.FunctionNames(), strings.ToUpper(name))
				require.NoError(t, e.Exec(context.Background(), "DROP FUNCTION "+name))
			}
		}()
	}
	for i := range 5 {
		require.NoError(t, e.RegisterFunction(fmt.Sprintf("late_%d", i), twice()))
	}
	wg.Wait()
}
