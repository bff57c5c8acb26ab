package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionText is what `wsql --version` and `wsql version` print: the
// module version, the VCS revision and the Go version, as the Go toolchain
// stamped them into the binary. A `go run` or test build has the version
// "(devel)" and may lack the revision; it says what there is.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return fmt.Sprintf("wsql (no build information)\ngo %s\n", runtime.Version())
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "wsql %s\n", version)
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, "revision %s", rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " (%s)", t)
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", modified")
		}
		b.WriteString("\n")
	}
	goVersion := info.GoVersion
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	fmt.Fprintf(&b, "go %s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
}

// printVersion writes the running binary's version text.
func printVersion(stdout io.Writer) int {
	info, ok := debug.ReadBuildInfo()
	fmt.Fprint(stdout, versionText(info, ok))
	return 0
}
