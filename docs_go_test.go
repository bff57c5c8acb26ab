package wsql_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/golden"
)

// The Go programs of the guides are built the way a Go developer would:
// in a new module made by following the guide's steps, against this
// checkout. Markers, in docs/go-api.md and docs/database-sql.md:
//
//	<!-- wsql:go-setup -->   before the ```sh block of setup commands; each
//	                         runs in the new module's directory, except the
//	                         git clone: the checkout under test is linked
//	                         where the clone would be (../wsql)
//	<!-- wsql:go-build -->   before the ```sh block of commands run once
//	                         main.go is written (go mod tidy, go run .);
//	                         their output is the program's
//	<!-- wsql:go-run -->     before a ```go block holding a main package,
//	                         written as main.go and built by the go-build
//	                         commands; a ```text block right after holds
//	                         its exact output (-rewrite regenerates it)
//
// The commands run in the test's environment as they are (GOPROXY,
// GOSUMDB, GOFLAGS): wsql comes from the checkout through the replace
// directive, its dependencies from the module cache or the module proxy,
// as on a user's machine.
var goDocs = []string{"docs/go-api.md", "docs/database-sql.md"}

var goMarkerRE = regexp.MustCompile(`^<!--\s*wsql:(go-setup|go-build|go-run)\s*-->$`)

type goDocBlock struct {
	kind     string // go-setup, go-build or go-run
	body     []string
	out      []string
	outStart int // line index of the output fence's first body line, -1 without
	outEnd   int
}

func TestDocsGoPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs in a new module")
	}
	root, err := os.Getwd()
	require.NoError(t, err)
	var setup, build []string
	type doc struct {
		path   string
		lines  []string
		blocks []*goDocBlock
	}
	var docs []*doc
	for _, path := range goDocs {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		d := &doc{path: path, lines: strings.Split(string(data), "\n")}
		d.blocks = parseGoDocBlocks(t, path, d.lines)
		for _, b := range d.blocks {
			switch b.kind {
			case "go-setup":
				setup = b.body
			case "go-build":
				build = b.body
			}
		}
		docs = append(docs, d)
	}
	require.NotEmpty(t, setup, "docs/go-api.md has no wsql:go-setup block")
	require.NotEmpty(t, build, "docs/go-api.md has no wsql:go-build block")

	dir := t.TempDir()
	require.NoError(t, os.Symlink(root, filepath.Join(dir, "wsql")))
	app := filepath.Join(dir, "app")
	require.NoError(t, os.Mkdir(app, 0o755))
	// GOWORK=off: a go.work above the temporary directory is not the user's.
	env := append(os.Environ(), "GOWORK=off")
	run := func(lines []string) string {
		var out strings.Builder
		for _, line := range lines {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "git clone") {
				continue
			}
			cmd := exec.Command("sh", "-c", line)
			cmd.Dir, cmd.Env = app, env
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &stderr
			require.NoError(t, cmd.Run(), "%s:\n%s", line, stderr.String())
		}
		return out.String()
	}
	run(setup)

	for _, d := range docs {
		changed := false
		for _, b := range d.blocks {
			if b.kind != "go-run" {
				continue
			}
			require.NoError(t, os.WriteFile(filepath.Join(app, "main.go"), []byte(strings.Join(b.body, "\n")+"\n"), 0o644))
			got := run(build)
			if golden.Rewrite() {
				require.GreaterOrEqual(t, b.outStart, 0, "%s: a go-run block needs a ```text block after it", d.path)
				b.out = strings.Split(strings.TrimSuffix(got, "\n"), "\n")
				changed = true
				continue
			}
			require.Equal(t, strings.Join(b.out, "\n")+"\n", got, "%s: the program's output differs; run go test . -run DocsGo -rewrite and review the diff", d.path)
		}
		if changed {
			var out []string
			last := 0
			for _, b := range d.blocks {
				if b.kind == "go-run" && b.outStart >= 0 {
					out = append(out, d.lines[last:b.outStart]...)
					out = append(out, b.out...)
					last = b.outEnd
				}
			}
			out = append(out, d.lines[last:]...)
			require.NoError(t, os.WriteFile(d.path, []byte(strings.Join(out, "\n")), 0o644))
		}
	}
}

// parseGoDocBlocks finds the marked blocks of a guide.
func parseGoDocBlocks(t *testing.T, path string, lines []string) []*goDocBlock {
	var blocks []*goDocBlock
	fence := func(from int, lang string) (body []string, start, end int) {
		require.Less(t, from, len(lines), "%s: a marker at the end of the file", path)
		require.Equal(t, "```"+lang, strings.TrimSpace(lines[from]), "%s:%d: expected a ```%s block", path, from+1, lang)
		for j := from + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "```" {
				return lines[from+1 : j], from + 1, j
			}
		}
		t.Fatalf("%s:%d: unclosed code block", path, from+1)
		return nil, 0, 0
	}
	for i := 0; i < len(lines); i++ {
		m := goMarkerRE.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		b := &goDocBlock{kind: m[1], outStart: -1}
		lang := map[string]string{"go-setup": "sh", "go-build": "sh", "go-run": "go"}[b.kind]
		var end int
		b.body, _, end = fence(i+1, lang)
		i = end
		if b.kind == "go-run" {
			j := end + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && strings.TrimSpace(lines[j]) == "```text" {
				b.out, b.outStart, b.outEnd = fence(j, "text")
				i = b.outEnd
			}
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// The install steps of the README and the getting-started guide, run as
// written in this checkout (the clone they make), with GOBIN in a
// temporary directory that is first on the PATH: the installed command
// answers --version.
func TestDocsGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and installs the command")
	}
	root, err := os.Getwd()
	require.NoError(t, err)
	for _, path := range []string{"README.md", "docs/getting-started.md"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			steps := installSteps(t, path)
			gobin := t.TempDir()
			env := append(os.Environ(), "GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"), "GOWORK=off")
			var out strings.Builder
			for _, line := range steps {
				// the checkout under test is the clone, and its root the
				// directory the clone is entered as
				if strings.HasPrefix(line, "git clone") || line == "cd wsql" {
					continue
				}
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir, cmd.Env = root, env
				var stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &stderr
				require.NoError(t, cmd.Run(), "%s: %s:\n%s", path, line, stderr.String())
			}
			require.FileExists(t, filepath.Join(gobin, "wsql"))
			require.Regexp(t, `^wsql \S+.*\ngo go1\.\d+`, out.String())
		})
	}
}

// installSteps is the ```sh block of path that installs the command from
// a clone; it must also show the installed command's --version.
func installSteps(t *testing.T, path string) []string {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			if l := strings.TrimSpace(lines[i]); l != "" {
				body = append(body, l)
			}
		}
		if slices.Contains(body, "go install ./cmd/wsql") {
			require.Contains(t, body, "wsql --version", "%s: the install block does not show the installed command running", path)
			return body
		}
	}
	t.Fatalf("%s has no ```sh block with go install ./cmd/wsql", path)
	return nil
}
