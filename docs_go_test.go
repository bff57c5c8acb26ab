package wsql_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/golden"
)

// The Go programs of the guides are built the way a Go developer would:
// in a new module made by following the guide's setup block, against this
// checkout. Markers, in docs/go-api.md and docs/database-sql.md:
//
//	<!-- wsql:go-setup -->   before the ```sh block of setup commands; each
//	                         runs in the new module's directory, except the
//	                         git clone: the checkout under test is linked
//	                         where the clone would be (../wsql)
//	<!-- wsql:go-run -->     before a ```go block holding a main package,
//	                         which is run; a ```text block right after holds
//	                         its exact output (-rewrite regenerates it)
//
// The modules come from the module cache (go mod download fills it), so
// the test needs no network.
var goDocs = []string{"docs/go-api.md", "docs/database-sql.md"}

var goMarkerRE = regexp.MustCompile(`^<!--\s*wsql:(go-setup|go-run)\s*-->$`)

type goDocBlock struct {
	kind     string // go-setup or go-run
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
	var setup []string
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
			if b.kind == "go-setup" {
				setup = b.body
			}
		}
		docs = append(docs, d)
	}
	require.NotEmpty(t, setup, "docs/go-api.md has no wsql:go-setup block")

	dir := t.TempDir()
	require.NoError(t, os.Symlink(root, filepath.Join(dir, "wsql")))
	app := filepath.Join(dir, "app")
	require.NoError(t, os.Mkdir(app, 0o755))
	// Offline: modules come from the cache (which go mod download verified
	// against go.sum), so the checksum database is not asked.
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off")
	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = app, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), "%s %s:\n%s", name, strings.Join(args, " "), stderr.String())
		return stdout.String()
	}
	for _, line := range setup {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "git clone") {
			continue
		}
		run("sh", "-c", line)
	}

	for _, d := range docs {
		changed := false
		for _, b := range d.blocks {
			if b.kind != "go-run" {
				continue
			}
			require.NoError(t, os.WriteFile(filepath.Join(app, "main.go"), []byte(strings.Join(b.body, "\n")+"\n"), 0o644))
			got := run("go", "run", ".")
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
		lang := map[string]string{"go-setup": "sh", "go-run": "go"}[b.kind]
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
