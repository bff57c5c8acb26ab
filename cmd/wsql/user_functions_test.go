package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// The command line has no Go program to register functions: SHOW USER
// FUNCTIONS lists none, and CREATE FUNCTION says what it needs.
func TestCLIUserFunctions(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "-e", "SHOW USER FUNCTIONS")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "function name\n", stdout)
	code, _, stderr = runCLI(t, "", "-e", "CREATE FUNCTION parse_ua AS 'ParseUserAgent'")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "error: 1:29: no Go function is registered as 'ParseUserAgent': a Go program registers one with Engine.RegisterFunction; none is registered\n")
	require.Contains(t, stderr, "CREATE FUNCTION parse_ua AS 'ParseUserAgent'\n                            ^")
}

// A shell over an engine a Go program registered functions on completes
// their names.
func TestShellCompletesUserFunctions(t *testing.T) {
	e := wsql.New()
	defer e.Close()
	require.NoError(t, e.RegisterFunction("parse_agent", wsql.ScalarFunc1(func(s string) string { return s })))
	sh := newShell(e, nil, io.Discard, io.Discard)
	_, got := sh.complete([]rune("SELECT PARSE_A"), len("SELECT PARSE_A"))
	require.Equal(t, []string{"PARSE_AGENT"}, got)
}
