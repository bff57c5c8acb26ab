package sql

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var rewriteGoldens = flag.Bool("rewrite", false, "rewrite the expected outputs in testdata/sql")

// TestGoldens parses every testdata/sql/*.sql and compares the dump of the
// statements, or the errors with carets, with the .out file beside it.
// Regenerate with: go test ./sql -rewrite
func TestGoldens(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "testdata", "sql", "*.sql"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".sql")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			require.NoError(t, err)
			stmts, err := Parse(string(src))
			var got string
			if err != nil {
				require.Nil(t, stmts)
				got = dumpErr(string(src), err)
			} else {
				got = dump(stmts)
			}
			out := strings.TrimSuffix(in, ".sql") + ".out"
			if *rewriteGoldens {
				require.NoError(t, os.WriteFile(out, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(out)
			require.NoError(t, err, "missing golden; run go test ./sql -rewrite")
			require.Equal(t, string(want), got)
		})
	}
}
