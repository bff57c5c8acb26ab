package wsql

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// inListQuery selects the rows of a ten-row table whose k is among n
// listed strings (every even one of k0, k1, ...) and whose d is among n
// listed decimals (0.5, 1.5, ...).
func inListQuery(n int) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE t (k STRING, d DECIMAL(10, 1)) WITH ('format' = 'csv');\nSELECT k, d FROM t WHERE k IN (")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "'k%d'", 2*i)
	}
	b.WriteString(") AND d NOT IN (")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d.5", 4*i)
	}
	b.WriteString(");")
	return b.String()
}

const inListTable = "k0,0.5\nk1,1.5\nk2,2.5\nk3,3.5\nk4,4.5\nk5,5.5\nk6,6.5\nk7,7.5\nk8,8.5\nk9,9.5\n"

func runInList(t testing.TB, src string) string {
	e, mem := checkedEngine(t.(*testing.T))
	defer mem.AssertSize(t, 0)
	ddl, query, _ := strings.Cut(src, "\n")
	require.NoError(t, e.CreateReaderTable(context.Background(), ddl, strings.NewReader(inListTable)))
	rows, err := e.Query(context.Background(), query)
	require.NoError(t, err)
	var out bytes.Buffer
	w := NewCSVWriter(&out, rows.Schema(), time.UTC)
	for rows.Next() {
		require.NoError(t, w.WriteBatch(rows.RecordBatch()))
	}
	require.NoError(t, w.Close())
	require.NoError(t, rows.Err())
	require.NoError(t, rows.Close())
	return out.String()
}

// A 100,000-item IN list is a hash set built once, planned in time and
// memory linear in the list: positions of the list's items are looked up
// without rescanning the line they are on.
func TestLargeInListPlansLinearly(t *testing.T) {
	const n = 100_000
	src := inListQuery(n)
	require.Equal(t, "k,d\nk2,2.5\nk6,6.5\n", runInList(t, src))

	explain := "EXPLAIN " + strings.SplitN(src, "\n", 2)[1]
	ddl := strings.SplitN(src, "\n", 2)[0]
	e := New()
	require.NoError(t, e.CreateReaderTable(context.Background(), ddl, strings.NewReader("")))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	text := 0
	require.NoError(t, e.Run(context.Background(), explain, Output{OnText: func(s string) { text += len(s) }}))
	runtime.ReadMemStats(&after)
	perItem := float64(after.TotalAlloc-before.TotalAlloc) / (2 * n)
	t.Logf("planning a %d-item IN list allocates %.0f bytes per item", 2*n, perItem)
	require.Greater(t, text, 2*n)
	require.Less(t, perItem, 4096.0, "planning an IN list should allocate a few hundred bytes per item")
}

// BenchmarkPlanInList100k plans (EXPLAIN) a query with a 100,000-item IN
// list of strings.
func BenchmarkPlanInList100k(b *testing.B) {
	var q strings.Builder
	q.WriteString("EXPLAIN SELECT k FROM t WHERE k IN (")
	for i := range 100_000 {
		if i > 0 {
			q.WriteString(", ")
		}
		fmt.Fprintf(&q, "'k%d'", i)
	}
	q.WriteString(")")
	e := New()
	require.NoError(b, e.CreateReaderTable(context.Background(), "CREATE TABLE t (k STRING) WITH ('format' = 'csv')", strings.NewReader("")))
	b.ReportAllocs()
	for b.Loop() {
		require.NoError(b, e.Run(context.Background(), q.String(), Output{}))
	}
}

// COALESCE, IFNULL, NULLIF, BETWEEN, a simple CASE and an IN list of
// expressions nested 200 deep run over a few rows at once: each level
// evaluates the level below once (it was twice, so 20 levels of COALESCE
// took 40 s over 3 rows).
func TestNestedOperandFormsRun(t *testing.T) {
	const depth = 200
	wrap := func(open, close string) string {
		return strings.Repeat(open, depth) + "v" + strings.Repeat(close, depth)
	}
	for name, c := range map[string]struct{ expr, want string }{
		"COALESCE":    {wrap("COALESCE(", ", w, 7)"), "k,x\na,1\nb,2\nc,7\n"},
		"IFNULL":      {wrap("IFNULL(", ", 7)"), "k,x\na,1\nb,7\nc,7\n"},
		"NULLIF":      {wrap("NULLIF(", ", 1)"), "k,x\na,\nb,\nc,\n"},
		"BETWEEN":     {wrap("IF(", " BETWEEN 1 AND 2, 1, 0)"), "k,x\na,1\nb,0\nc,0\n"},
		"simple CASE": {wrap("CASE ", " WHEN 1 THEN 1 WHEN 0 THEN 0 END"), "k,x\na,1\nb,\nc,\n"},
		"IN":          {wrap("IF(", " IN (w, 1), 1, 0)"), "k,x\na,1\nb,0\nc,0\n"},
	} {
		t.Run(name, func(t *testing.T) {
			e, mem := checkedEngine(t)
			defer mem.AssertSize(t, 0)
			require.NoError(t, e.CreateReaderTable(context.Background(),
				"CREATE TABLE t (k STRING, v BIGINT, w BIGINT) WITH ('format' = 'csv')",
				strings.NewReader("a,1,5\nb,,2\nc,,\n")))
			rows, err := e.Query(context.Background(), "SELECT k, "+c.expr+" AS x FROM t")
			require.NoError(t, err)
			var out bytes.Buffer
			w := NewCSVWriter(&out, rows.Schema(), time.UTC)
			for rows.Next() {
				require.NoError(t, w.WriteBatch(rows.RecordBatch()))
			}
			require.NoError(t, w.Close())
			require.NoError(t, rows.Err())
			require.NoError(t, rows.Close())
			require.Equal(t, c.want, out.String())
		})
	}
}
