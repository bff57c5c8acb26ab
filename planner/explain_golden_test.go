package planner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/internal/golden"
	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// TestExplainGoldens plans every testdata/planner/explain/*.sql, one query
// shape per file, and compares the EXPLAIN of each of its EXPLAIN
// statements with the .out file beside it. Tables and views are created
// and SET applied as the engine does, for the settings the planner reads.
// Regenerate with: go test ./planner -run TestExplainGoldens -rewrite
func TestExplainGoldens(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "testdata", "planner", "explain", "*.sql"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".sql")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			require.NoError(t, err)
			got := explainScript(t, string(src))
			golden.Check(t, strings.TrimSuffix(in, ".sql")+".out", got)
		})
	}
}

// explainScript runs a script's statements against a fresh catalog and
// returns, for each EXPLAIN, the statement followed by its plan.
func explainScript(t *testing.T, src string) string {
	stmts, err := sql.Parse(src)
	require.NoError(t, err)
	cat := catalog.New()
	settings := map[string]string{}
	var b strings.Builder
	for _, st := range stmts {
		opts := explainOptions(t, settings)
		switch s := st.(type) {
		case *sql.CreateTable:
			_, err := cat.CreateTable(s)
			require.NoError(t, err)
		case *sql.CreateView:
			// a view must plan when it is created, as in the engine
			_, err := PlanSelect(s.Query, cat, opts)
			require.NoError(t, err)
			_, err = cat.CreateView(s)
			require.NoError(t, err)
		case *sql.Set:
			set, ok := setting.Lookup(s.Key, setting.ScopeSession)
			require.True(t, ok, "line %d: no setting %s", s.At.Line, s.Key)
			require.NoError(t, set.Check(s.Value))
			settings[s.Key] = s.Value
		case *sql.Explain:
			var p *Plan
			switch q := s.Stmt.(type) {
			case *sql.Select:
				p, err = PlanSelect(q, cat, opts)
			case *sql.Insert:
				p, err = PlanInsert(q, cat, opts)
			default:
				t.Fatalf("line %d: EXPLAIN of %T", s.At.Line, s.Stmt)
			}
			require.NoError(t, err, "line %d", s.At.Line)
			_, err = p.Job()
			require.NoError(t, err, "line %d: the plan does not run", s.At.Line)
			fmt.Fprintf(&b, "%s\n%s\n", sqlfmt.Statement(st), p.Explain())
		default:
			t.Fatalf("line %d: %T is not part of an EXPLAIN golden", st.Pos().Line, st)
		}
	}
	return b.String()
}

// explainOptions are the planner options the SET statements so far give;
// a key the planner does not read fails the test, so no golden claims a
// setting changes a plan that it cannot change.
func explainOptions(t *testing.T, settings map[string]string) Options {
	opts := Options{} // the system clock, as the command line runs
	for key, value := range settings {
		switch key {
		case setting.LocalTimeZone:
			loc, err := setting.LoadZone(value)
			require.NoError(t, err)
			opts.Location = loc
		case setting.BadRowsPath:
			opts.BadRowsPath = value
		case setting.EarlyFire, setting.EarlyFireDelay, setting.LateFire, setting.LateFireDelay, setting.AllowLateness, setting.LateDataPath:
			// read by ParseEmit below
		default:
			t.Fatalf("SET '%s': the planner does not read it", key)
		}
	}
	emit, err := ParseEmit(func(key string) (string, bool) {
		v, ok := settings[key]
		return v, ok
	})
	require.NoError(t, err)
	opts.Emit = emit
	return opts
}
