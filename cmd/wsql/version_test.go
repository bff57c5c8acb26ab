package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// --version and the version command print what the build stamped: a test
// build is "(devel)" and names the Go it was built with.
func TestVersionFlagAndCommand(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		require.Equal(t, 0, code, args)
		require.Empty(t, stderr, args)
		require.True(t, strings.HasPrefix(stdout, "wsql "), stdout)
		require.Contains(t, stdout, "go "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+"\n")
	}
	code, stdout, stderr := runCLI(t, "", "version", "extra")
	require.Equal(t, 2, code)
	require.Empty(t, stdout)
	require.Equal(t, "wsql: version takes no arguments\nrun 'wsql --help' for usage\n", stderr)
}

func TestVersionTextFromBuildInfo(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.0",
		Main:      debug.Module{Path: "github.com/wsql/wsql", Version: "v0.3.1"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-30T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	platform := " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	require.Equal(t, "wsql v0.3.1\n"+
		"revision 0123456789abcdef0123456789abcdef01234567 (2026-11-30T10:00:00Z), modified\n"+
		"go go1.26.0"+platform, versionText(info, true))

	info.Settings = info.Settings[:3] // clean checkout
	require.Equal(t, "wsql v0.3.1\n"+
		"revision 0123456789abcdef0123456789abcdef01234567 (2026-11-30T10:00:00Z)\n"+
		"go go1.26.0"+platform, versionText(info, true))

	// go run without VCS stamping: only what there is
	devel := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/wsql/wsql", Version: "(devel)"}}
	require.Equal(t, "wsql (devel)\ngo go1.26.0"+platform, versionText(devel, true))
}
