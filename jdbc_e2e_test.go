package wsql

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/golden"
	"github.com/wsql/wsql/internal/pgtest"
)

// TestJDBCEndToEnd runs each script of testdata/jdbc against a PostgreSQL
// server started for the test (it fails when none can start): the .pg
// file beside the script holds the PostgreSQL statements run in a fresh
// database before the script and, after a line "-- after the run", the
// queries whose rows are printed after it, one a line. The script's
// '${url}' is the database's JDBC url (printed as ${url}). The output
// must be the same at batch sizes 1 and 4096, and is the golden .out.
func TestJDBCEndToEnd(t *testing.T) {
	scripts, err := filepath.Glob("testdata/jdbc/*.sql")
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	pg := pgtest.Start(t)
	for _, path := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			setup, err := os.ReadFile(strings.TrimSuffix(path, ".sql") + ".pg")
			require.NoError(t, err)
			before, after, _ := strings.Cut(string(setup), "-- after the run\n")
			var outputs []string
			for _, size := range []int{1, 4096} {
				db := pg.NewDatabase(t)
				pg.Exec(t, db, before)
				url := pg.JDBCURLOf(db)
				out := strings.ReplaceAll(runScript(t, strings.ReplaceAll(string(src), "${url}", url), size), url, "${url}")
				for _, q := range strings.Split(strings.TrimSpace(after), "\n") {
					if q == "" {
						continue
					}
					rows := pg.QueryIn(t, db, q)
					out += fmt.Sprintf("-- %s: %d rows\n", q, len(rows))
					for _, r := range rows {
						out += r + "\n"
					}
				}
				outputs = append(outputs, out)
			}
			require.Equal(t, outputs[1], outputs[0], "batch size 1 differs from 4096")
			golden.Check(t, strings.TrimSuffix(path, ".sql")+".out", outputs[1])
		})
	}
}
