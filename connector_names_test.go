package wsql

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/gotable"
	"github.com/wsql/wsql/exec/connector/kafka"
	"github.com/wsql/wsql/exec/connector/pgcdc"
)

// namesAllowedIn are the Go files outside a connector's or format's own
// package that may still write its name as a string, and why.
var namesAllowedIn = map[string]string{
	// the names of the benchmark's workloads, which read those connectors
	// through SQL text
	"cmd/wsql/bench.go": "bench workload names",
	// the results' formats of the command line (--format, \format) and
	// of the writers' checkpointed state: the Go API's result writers, not
	// the 'format' option of a table
	"cmd/wsql/main.go":                   "results format",
	"cmd/wsql/shell.go":                  "results format",
	"cmd/wsql/shell_readline.go":         "results format",
	"exec/format/writer/writer_state.go": "results format",
	// PostgreSQL's type names, one of which is json
	"exec/connector/jdbc/types.go": "PostgreSQL type names",
}

// TestConnectorNamesStayInTheirPackages: adding a connector or format is
// one folder and one registration, so no Go code outside the connector's
// (or format's) own package names it in a string literal: not in a switch,
// not in a list. SQL text that mentions one (`'connector' = 'datagen'`) is
// not a bare name and is fine, as are tests and docs.
func TestConnectorNamesStayInTheirPackages(t *testing.T) {
	owner := map[string]string{} // name → the directory allowed to write it
	for _, name := range connector.Names() {
		owner[name] = "exec/connector/" + name
	}
	owner[gotable.Name] = "exec/connector/gotable"   // "go" cannot name a package
	owner[kafka.UpsertName] = "exec/connector/kafka" // a second connector of the kafka package
	owner[pgcdc.Name] = "exec/connector/pgcdc"       // "postgres-cdc" cannot name a package
	for _, f := range connector.Formats() {
		owner[f.Name] = "exec/connector/formats"
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		if _, ok := namesAllowedIn[filepath.ToSlash(path)]; ok {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if home, ok := owner[s]; ok && dir != home {
				t.Errorf("%s: the name %q belongs to %s; read it from the registry (exec/connector) instead", fset.Position(lit.Pos()), s, home)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
}
