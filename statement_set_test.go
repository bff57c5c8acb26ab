package wsql_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// A statement set through the Go API: two INSERTs read a table pushed
// from Go, whose rows can be read once, through one shared read; each sink
// gets what its INSERT gives. The client form works across Exec calls, as
// the session's; Exec of a script holds the EXECUTE form.
func TestStatementSetThroughGoAPI(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem), wsql.WithBatchSize(2))
	defer e.Close()

	var mu sync.Mutex
	got := map[string][]string{}
	sink := func(name string) wsql.SinkFunc {
		return func(_ context.Context, b wsql.RecordBatch) error {
			mu.Lock()
			defer mu.Unlock()
			for i := 0; i < int(b.NumRows()); i++ {
				var f []string
				for _, c := range b.Columns() {
					f = append(f, wsql.ValueText(c, i, time.UTC))
				}
				got[name] = append(got[name], strings.Join(f, ","))
			}
			return nil
		}
	}
	require.NoError(t, e.CreateSinkTable(ctx, `CREATE TABLE counts (k STRING, n BIGINT)`, sink("counts")))
	require.NoError(t, e.CreateSinkTable(ctx, `CREATE TABLE copies (k STRING)`, sink("copies")))

	for _, form := range []string{"client", "execute"} {
		clear(got)
		events, err := e.CreatePushTable(ctx, `CREATE TABLE events (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)`)
		require.NoError(t, err)
		counts := `INSERT INTO counts SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND);`
		copies := `INSERT INTO copies SELECT k FROM events WHERE k <> 'b';`
		done := make(chan error, 1)
		if form == "client" {
			require.NoError(t, e.Exec(ctx, "BEGIN STATEMENT SET;"))
			require.NoError(t, e.Exec(ctx, counts))
			require.NoError(t, e.Exec(ctx, copies))
			open, n := e.StatementSet()
			require.True(t, open)
			require.Equal(t, 2, n)
			err := e.Exec(ctx, "SET 'table.local-time-zone' = 'UTC'")
			require.EqualError(t, err, "1:1: only INSERT statements are allowed in a statement set, found SET")
			go func() { done <- e.Exec(ctx, "END;") }()
		} else {
			go func() { done <- e.Exec(ctx, "EXECUTE STATEMENT SET BEGIN "+counts+copies+" END;") }()
		}
		for i, k := range []string{"a", "b", "a", "c", "a"} {
			require.NoError(t, events.AppendRow(ctx, t0.Add(time.Duration(i*4)*time.Second), k))
		}
		require.NoError(t, events.Close())
		require.NoError(t, <-done)
		require.Equal(t, []string{"a,2", "b,1", "a,1", "c,1"}, got["counts"], form)
		require.Equal(t, []string{"a", "a", "c", "a"}, got["copies"], form)
		open, _ := e.StatementSet()
		require.False(t, open)
		require.NoError(t, e.Exec(ctx, "DROP TABLE events"))
	}

	require.EqualError(t, e.Exec(ctx, "END;"), "1:1: END without BEGIN STATEMENT SET")
}
