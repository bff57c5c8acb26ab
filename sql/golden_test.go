package sql

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/golden"
)

// TestGoldens parses every testdata/sql/*.sql and compares the dump of the
// statements, each followed by Format's text, or the errors with carets,
// with the .out file beside it. Every statement must also survive a round
// trip through Format and Parse.
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
				got = dumpAndFormat(t, stmts)
			}
			golden.Check(t, strings.TrimSuffix(in, ".sql")+".out", got)
		})
	}
}

// dumpAndFormat dumps each statement with its Format text and checks the
// round trip; a view's QueryText must parse into its Query too.
func dumpAndFormat(t *testing.T, stmts []Statement) string {
	var b strings.Builder
	for _, st := range stmts {
		b.WriteString(dump([]Statement{st}))
		b.WriteString("-- format:\n" + formatStmt(st) + "\n")
		if v, ok := st.(*CreateView); ok {
			q, err := Parse(v.QueryText)
			require.NoError(t, err)
			erase(reflect.ValueOf(q[0]))
			want := *v.Query
			erase(reflect.ValueOf(&want))
			require.Equal(t, &want, q[0])
		}
		requireRoundTrip(t, st)
	}
	return b.String()
}
