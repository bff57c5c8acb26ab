package wsql

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpilledStateGivesTheGoldens runs the end-to-end scripts with joins
// or Top-Ns with a state budget of a few bytes, so the rows they keep go
// to a spill file almost all, and requires their goldens.
func TestSpilledStateGivesTheGoldens(t *testing.T) {
	keeps := regexp.MustCompile(`(?i)\bJOIN\b|ROW_NUMBER|\bRANK\b`)
	ran := 0
	for _, path := range e2eScripts(t) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		if !keeps.Match(src) || strings.Contains(string(src), "wsql.state.spill-after") {
			continue
		}
		want, err := os.ReadFile(strings.TrimSuffix(path, ".sql") + ".out")
		require.NoError(t, err)
		name := strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], ".sql")
		t.Run(name, func(t *testing.T) {
			// the SET on the script's first line: an error's position
			// names the same line and column
			spilling := "SET 'wsql.state.spill-after' = '16';" + string(src)
			for _, size := range []int{3, 4096} {
				require.Equal(t, string(want), runScript(t, spilling, size), "batch size %d", size)
			}
		})
		ran++
	}
	require.Greater(t, ran, 10)
}

// TestNexmarkSpilledGivesTheGoldens is TestSpilledStateGivesTheGoldens
// for the Nexmark queries with joins or Top-Ns.
func TestNexmarkSpilledGivesTheGoldens(t *testing.T) {
	ddl, err := os.ReadFile("testdata/nexmark/ddl.sql")
	require.NoError(t, err)
	queries, err := filepath.Glob("testdata/nexmark/q*.sql")
	require.NoError(t, err)
	keeps := regexp.MustCompile(`(?i)\bJOIN\b|ROW_NUMBER|\bRANK\b|FROM\s+\w+\s+\w+\s*,`)
	ran := 0
	for _, path := range queries {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		if !keeps.Match(src) {
			continue
		}
		want, err := os.ReadFile(strings.TrimSuffix(path, ".sql") + ".out")
		require.NoError(t, err)
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".sql"), func(t *testing.T) {
			spilling := "SET 'wsql.state.spill-after' = '16';" + string(src)
			for _, size := range []int{3, 4096} {
				require.Equal(t, string(want), runNexmarkQuery(t, string(ddl), name, spilling, size), "batch size %d", size)
			}
		})
		ran++
	}
	require.GreaterOrEqual(t, ran, 8)
}

// The summary says how much state was spilled; Counts, which tests
// compare across batch sizes, does not.
func TestSummarySaysStateSpilled(t *testing.T) {
	src, err := os.ReadFile("testdata/e2e/join_order.sql")
	require.NoError(t, err)
	var summaries []Summary
	e := New(WithBatchSize(2))
	err = e.Run(context.Background(), "SET 'wsql.state.spill-after' = '16';"+string(src), Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(io.Discard, r.Schema, r.Location), nil },
		Stdout:    io.Discard,
		OnSummary: func(s Summary) { summaries = append(summaries, s) },
	})
	require.NoError(t, err)
	require.NotEmpty(t, summaries)
	s := summaries[len(summaries)-1]
	require.Positive(t, s.StateSpilled)
	require.Contains(t, s.String(), " of state spilled to disk in ")
	require.NotContains(t, s.Counts(), "spilled")
}
