package wsql

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/golden"
	"github.com/wsql/wsql/rowtime"
)

// TestNexmarkSuite runs the Nexmark queries of testdata/nexmark, each
// file as the nexmark project writes it (q5, q7, q8 and q12 in both the
// legacy and the window TVF form), after the shared ddl.sql, with batch
// sizes 1, 3 and 4096 and with parallelism 3, and compares the output with
// the .out golden next to the query. A query wsql cannot run yet ends with
// its positioned error, so the goldens show which queries run.
// `go test . -run TestNexmarkSuite -rewrite` regenerates the goldens.
func TestNexmarkSuite(t *testing.T) {
	ddl, err := os.ReadFile("testdata/nexmark/ddl.sql")
	require.NoError(t, err)
	queries, err := filepath.Glob("testdata/nexmark/q*.sql")
	require.NoError(t, err)
	require.Len(t, queries, 27, "q0 to q22, and the TVF forms of q5, q7, q8 and q12")
	for _, path := range queries {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".sql"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			var outputs []string
			for _, size := range []int{1, 3, 4096} {
				outputs = append(outputs, runNexmarkQuery(t, string(ddl), name, string(src), size))
			}
			require.Equal(t, outputs[2], outputs[0], "batch size 1 differs from 4096")
			require.Equal(t, outputs[2], outputs[1], "batch size 3 differs from 4096")
			for _, size := range []int{4, 4096} {
				requireSameParallel(t, outputs[2], runNexmarkQuery(t, string(ddl), name, string(src), size, WithParallelism(3)), size)
			}
			golden.Check(t, strings.TrimSuffix(path, ".sql")+".out", outputs[2])
		})
	}
}

// runNexmarkQuery runs ddl, then the query file's src on the same session,
// as runScript renders a script: rows (a print sink's on stdout),
// summaries, and the query's error with its position in the file name.
func runNexmarkQuery(t *testing.T, ddl, name, src string, batchSize int, opts ...Option) string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	// a fixed processing-time clock makes q12's PROCTIME() windows reproducible
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC))
	e := New(append([]Option{WithAllocator(mem), WithBatchSize(batchSize), WithClock(clock)}, opts...)...)
	require.NoError(t, e.RegisterFunction("CountChar", &countChar))
	output := Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, r.Location), nil },
		OnText:    func(s string) { out.WriteString(s) },
		OnNotice:  func(s string) { out.WriteString(s + "\n") },
		Stdout:    &out,
		OnSummary: func(s Summary) { fmt.Fprintf(&out, "-- %s\n", s.Counts()) },
	}
	require.NoError(t, e.Run(context.Background(), ddl, output), "ddl.sql")
	if err := e.Run(context.Background(), src, output); err != nil {
		out.WriteString(FormatFileError(name, src, err) + "\n")
	}
	return out.String()
}

// countChar is the nexmark project's CountChar UDF (q14) in Go: how often
// the first character of its second argument occurs in its first; 0 for a
// NULL text.
var countChar = ScalarFunction{
	Args:   []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.String},
	Result: arrow.PrimitiveTypes.Int64,
	Eval: func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error) {
		text, char := args[0].(*array.String), args[1].(*array.String)
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.Reserve(text.Len())
		for i := range text.Len() {
			n := int64(0)
			if text.IsValid(i) && char.IsValid(i) && char.Value(i) != "" {
				c, _ := utf8.DecodeRuneInString(char.Value(i))
				for _, r := range text.Value(i) {
					if r == c {
						n++
					}
				}
			}
			b.Append(n)
		}
		return b.NewArray(), nil
	},
	Description: "the nexmark project's CountChar: occurrences of a character in a text",
}
