package wsql_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/internal/golden"
	"github.com/wsql/wsql/sql"
)

// digits is a table function: the decimal digits of n, each with its
// place from the right (0 is the units); NULL gives no rows.
func digits() *wsql.TableFunction {
	return &wsql.TableFunction{
		Args:    []arrow.DataType{arrow.PrimitiveTypes.Int64},
		Columns: []arrow.Field{{Name: "d", Type: arrow.PrimitiveTypes.Int64}, {Name: "place", Type: arrow.PrimitiveTypes.Int32}},
		Eval: func(mem memory.Allocator, args []arrow.Array) (arrow.RecordBatch, []int, error) {
			n := args[0].(*array.Int64)
			b := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{{Name: "d", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "place", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil))
			defer b.Release()
			var rows []int
			for i := 0; i < n.Len(); i++ {
				if n.IsNull(i) {
					continue
				}
				s := fmt.Sprint(n.Value(i))
				for k := range s {
					b.Field(0).(*array.Int64Builder).Append(int64(s[k] - '0'))
					b.Field(1).(*array.Int32Builder).Append(int32(len(s) - 1 - k))
					rows = append(rows, i)
				}
			}
			return b.NewRecordBatch(), rows, nil
		},
		Description: "the digits of a number",
	}
}

// vowels is a table function: the vowels of s, in order.
func vowels() *wsql.TableFunction {
	return &wsql.TableFunction{
		Args:    []arrow.DataType{arrow.BinaryTypes.String},
		Columns: []arrow.Field{{Name: "v", Type: arrow.BinaryTypes.String}},
		Eval: func(mem memory.Allocator, args []arrow.Array) (arrow.RecordBatch, []int, error) {
			s := args[0].(*array.String)
			vb := array.NewStringBuilder(mem)
			defer vb.Release()
			var rows []int
			for i := 0; i < s.Len(); i++ {
				for _, c := range s.Value(i) {
					if strings.ContainsRune("aeiou", c) {
						vb.Append(string(c))
						rows = append(rows, i)
					}
				}
			}
			col := vb.NewArray()
			defer col.Release()
			return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), []arrow.Array{col}, int64(col.Len())), rows, nil
		},
	}
}

var lateralQueries = []string{
	"SELECT usr, n, d, place FROM clicks, LATERAL TABLE(digits(n)) AS T(d, place)",
	"SELECT usr, n, d FROM clicks CROSS JOIN LATERAL TABLE(digits(n)) AS T(d, place) WHERE place = 0",
	"SELECT usr, n, d, place FROM clicks LEFT JOIN LATERAL TABLE(digits(n)) AS T(d, place) ON TRUE",
	// an INT argument is cast to the function's BIGINT, as for scalar functions
	"SELECT usr, d FROM clicks, LATERAL TABLE(digits(CAST(n AS INT) * 7)) AS T(d, place)",
	// the rowtime passes through: a window may follow
	"SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, COUNT(*) AS vowels FROM clicks CROSS JOIN LATERAL TABLE(vowels(usr)) AS T(v) GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)",
	// over an update stream, each change with its kind
	"SELECT usr, c, v FROM (SELECT usr, COUNT(*) AS c FROM clicks GROUP BY usr) AS g, LATERAL TABLE(vowels(g.usr)) AS T(v)",
	// two functions, one after the other
	"SELECT usr, v, d FROM clicks, LATERAL TABLE(vowels(usr)) AS V(v), LATERAL TABLE(digits(n)) AS D(d, place) WHERE n < 5",
	"EXPLAIN SELECT usr, d FROM clicks LEFT JOIN LATERAL TABLE(digits(n)) AS T(d, place) ON TRUE",
	// errors, with their positions
	"SELECT usr, d FROM clicks LEFT JOIN LATERAL TABLE(digits(n)) AS T(d, place) ON d > 1",
	"SELECT usr, d FROM clicks, LATERAL TABLE(digits(usr)) AS T(d, place)",
	"SELECT usr, d FROM clicks, LATERAL TABLE(digits(n, n)) AS T(d, place)",
	"SELECT usr, d FROM clicks, LATERAL TABLE(digits(n)) AS T(d)",
	"SELECT usr, d FROM clicks, LATERAL TABLE(digitz(n)) AS T(d, place)",
	"SELECT digits(n) FROM clicks",
}

// runLateral runs every query of lateralQueries on one engine and renders
// the rows (with the row kind of an update stream) or the error.
func runLateral(t *testing.T, opts ...wsql.Option) string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := udfEngine(t, append([]wsql.Option{wsql.WithAllocator(mem)}, opts...)...)
	defer e.Close()
	require.NoError(t, e.RegisterFunction("digits", digits()))
	require.NoError(t, e.RegisterFunction("vowels", vowels()))
	var out bytes.Buffer
	for _, q := range lateralQueries {
		out.WriteString("> " + q + "\n")
		err := e.Run(context.Background(), q, wsql.Output{
			NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
				return wsql.NewCSVWriter(&out, r.Schema, time.UTC), nil
			},
			OnText: func(s string) { out.WriteString(s) },
		})
		if err != nil {
			out.WriteString(wsql.FormatError(q, err) + "\n")
		}
	}
	// the table's file is in a temporary directory
	return regexp.MustCompile(`path=\[[^]]*/clicks.csv\]`).ReplaceAllString(out.String(), "path=[clicks.csv]")
}

// LATERAL TABLE runs a Go table function with Flink's semantics; the
// result is the same at every batch size and with parallelism.
func TestLateralTableFunction(t *testing.T) {
	want := runLateral(t, wsql.WithBatchSize(4096))
	for _, opts := range [][]wsql.Option{{wsql.WithBatchSize(1)}, {wsql.WithBatchSize(3)}, {wsql.WithBatchSize(4), wsql.WithParallelism(3)}} {
		require.Equal(t, want, runLateral(t, opts...))
	}
	golden.Check(t, "testdata/user_functions/lateral_table.out", want)
}

// A table function's error or panic stops the query naming the function.
func TestLateralTableFunctionErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := udfEngine(t, wsql.WithAllocator(mem), wsql.WithBatchSize(2))
	defer e.Close()
	for name, eval := range map[string]func(memory.Allocator, []arrow.Array) (arrow.RecordBatch, []int, error){
		"fails": func(memory.Allocator, []arrow.Array) (arrow.RecordBatch, []int, error) {
			return nil, nil, errors.New("no, thanks")
		},
		"panics": func(memory.Allocator, []arrow.Array) (arrow.RecordBatch, []int, error) { panic("boom") },
	} {
		require.NoError(t, e.RegisterFunction(name, &wsql.TableFunction{Args: []arrow.DataType{arrow.BinaryTypes.String},
			Columns: []arrow.Field{{Name: "x", Type: arrow.BinaryTypes.String}}, Eval: eval}))
	}
	_, err := queryCSV(t, e, "SELECT usr, x FROM clicks, LATERAL TABLE(fails(usr)) AS T(x)")
	require.ErrorContains(t, err, "function FAILS: no, thanks")
	_, err = queryCSV(t, e, "SELECT usr, x FROM clicks, LATERAL TABLE(panics(usr)) AS T(x)")
	require.ErrorContains(t, err, "function PANICS panicked: boom")
	var se *sql.Error
	_, err = queryCSV(t, e, "SELECT FAILS(usr) FROM clicks")
	require.True(t, errors.As(err, &se), "%v", err)
	require.Equal(t, "1:8: table function FAILS gives rows: it is called in FROM as LATERAL TABLE(FAILS(...)), joined with the table whose rows it expands", se.Pos.String()+": "+se.Msg)
}
