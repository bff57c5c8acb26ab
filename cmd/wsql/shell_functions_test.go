package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// TestShellCompletesEveryFunction: completion offers every function SHOW
// FUNCTIONS lists (both read the planner's function registry), and no
// function name that SHOW FUNCTIONS does not list.
func TestShellCompletesEveryFunction(t *testing.T) {
	sh := newShell(wsql.New(), nil, io.Discard, io.Discard)
	listed := map[string]bool{}
	for _, name := range wsql.FunctionNames() {
		listed[name] = true
		typed := "SELECT " + strings.Fields(name)[0] // IS JSON is offered from IS
		_, got := sh.complete([]rune(typed), len(typed))
		require.Contains(t, got, name)
	}
	for _, name := range []string{"WEEK", "DAYOFWEEK", "DAYOFYEAR"} {
		require.True(t, listed[name], name)
	}
	keywords := map[string]bool{}
	for _, k := range wsql.Keywords() {
		keywords[k] = true
	}
	// functions wsql knows but does not run are not offered
	for _, name := range []string{"HASH_CODE", "PARSE_JSON"} {
		_, got := sh.complete([]rune("SELECT "+name), len("SELECT "+name))
		if !keywords[name] {
			require.NotContains(t, got, name)
		}
	}
}
