package wsql

import (
	"bufio"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/wsql/wsql"

var externalNames = map[string]string{
	"arrow":       "github.com/apache/arrow-go/v18",
	"tidb-parser": "github.com/pingcap/tidb/pkg/parser",
	"x/term":      "golang.org/x/term",
	"x/sys":       "golang.org/x/sys",
	"readline":    "github.com/chzyer/readline",
	"testify":     "github.com/stretchr/testify",
	"datadriven":  "github.com/cockroachdb/datadriven",
	"regexp2":     "github.com/dlclark/regexp2/v2",
	"franz-go":    "github.com/twmb/franz-go",
	"twmb/avro":   "github.com/twmb/avro",
	"prometheus":  "github.com/prometheus/client_golang",
	"minio-go":    "github.com/minio/minio-go/v7",
	"gofakes3":    "github.com/johannesboyne/gofakes3",
	"pgx":         "github.com/jackc/pgx/v5",
	"pglogrepl":   "github.com/jackc/pglogrepl",
	"s2":          "github.com/klauspost/compress/s2",
	"parquet-go":  "github.com/parquet-go/parquet-go",
	"duckdb-go":   "github.com/duckdb/duckdb-go/v2",
}

// TestImportsFollowArchitectureDoc keeps docs/ARCHITECTURE.md and the code
// in step: every package's imports must be allowed by its row of the table.
func TestImportsFollowArchitectureDoc(t *testing.T) {
	allowed := readImportTable(t, "docs/ARCHITECTURE.md")
	pkgs := modulePackages(t)
	for _, dir := range pkgs {
		_, ok := allowed[dir]
		require.Truef(t, ok, "package %s is not in the table of docs/ARCHITECTURE.md", dir)
	}
	for dir := range allowed {
		require.Containsf(t, pkgs, dir, "docs/ARCHITECTURE.md lists %s, which is not a package", dir)
	}
	for _, dir := range pkgs {
		p, err := build.ImportDir(dir, 0)
		require.NoError(t, err)
		for _, imp := range p.Imports {
			require.Truef(t, importAllowed(imp, allowed[dir]),
				"%s imports %s, which docs/ARCHITECTURE.md does not allow (allowed: %v)", dir, imp, allowed[dir])
		}
	}
}

func importAllowed(imp string, names []string) bool {
	first, _, _ := strings.Cut(imp, "/")
	if !strings.Contains(first, ".") {
		return true // standard library
	}
	for _, n := range names {
		var prefix string
		switch {
		case externalNames[n] != "":
			prefix = externalNames[n]
		case n == "wsql":
			if imp == module {
				return true
			}
			continue
		default:
			prefix = module + "/" + n
		}
		if imp == prefix || strings.HasPrefix(imp, prefix+"/") {
			return true
		}
	}
	return false
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// readImportTable parses the "package | owns | may import" table.
func readImportTable(t *testing.T, path string) map[string][]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	out := map[string][]string{}
	inTable := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "| package | owns | may import |") {
			inTable = true
			continue
		}
		if !inTable {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			continue
		}
		m := codeSpan.FindStringSubmatch(cells[0])
		require.NotNilf(t, m, "bad table row %q", line)
		var names []string
		for _, s := range codeSpan.FindAllStringSubmatch(cells[2], -1) {
			names = append(names, s[1])
		}
		out[m[1]] = names
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out, "no import table found in %s", path)
	return out
}

// modulePackages lists the directories holding non-test Go files.
func modulePackages(t *testing.T) []string {
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			seen[filepath.ToSlash(filepath.Dir(path))] = true
		}
		return nil
	})
	require.NoError(t, err)
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// maxPackageLines is the size, in non-test lines, above which a package
// needs a reason in docs/ARCHITECTURE.md's "Package sizes" table.
const maxPackageLines = 5000

// TestLargePackagesHaveAReason keeps packages small enough to read: one
// below cmd/ with more than maxPackageLines non-test lines must be listed
// in the "Package sizes" table with why it stays one package.
func TestLargePackagesHaveAReason(t *testing.T) {
	reasons := readSizeTable(t, "docs/ARCHITECTURE.md")
	for _, dir := range modulePackages(t) {
		if strings.HasPrefix(dir, "cmd/") {
			continue
		}
		n := nonTestLines(t, dir)
		if n > maxPackageLines {
			require.Containsf(t, reasons, dir,
				"package %s has %d non-test lines, more than %d: split it, or say why it is one package in the \"Package sizes\" table of docs/ARCHITECTURE.md", dir, n, maxPackageLines)
		}
	}
}

// readSizeTable reads the packages named in the "| package | why it is one
// package |" table.
func readSizeTable(t *testing.T, path string) map[string]bool {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	out := map[string]bool{}
	inTable := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| package | why it is one package |") {
			inTable = true
			continue
		}
		if !inTable {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		if m := codeSpan.FindStringSubmatch(line); m != nil {
			out[m[1]] = true
		}
	}
	require.NotEmpty(t, out, "no package size table found in %s", path)
	return out
}

// nonTestLines counts the lines of a package's non-test Go files.
func nonTestLines(t *testing.T, dir string) int {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		n += strings.Count(string(data), "\n")
	}
	return n
}
