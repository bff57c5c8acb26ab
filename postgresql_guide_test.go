package wsql

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/golden"
	"github.com/wsql/wsql/internal/pgtest"
)

// guidePath is the PostgreSQL guide, whose worked example this test runs.
const guidePath = "docs/postgresql.md"

// guideBlock is a code block of the guide's worked example: PostgreSQL's
// SQL run in psql, wsql's script, or the output of a command shown as a
// transcript ("$ psql shop -c '...'", "$ wsql run ...").
type guideBlock struct {
	kind       string // "psql", "wsql" or "output"
	open, stop int    // the lines of its fences
	body       []string
}

var guideMarkerRE = regexp.MustCompile(`<!-- (?:wsql:skip .*\(TestPostgreSQLGuide (psql|wsql)\)|TestPostgreSQLGuide (output)) -->`)

// guideBlocks finds the marked blocks of the guide, in order.
func guideBlocks(t *testing.T, lines []string) []guideBlock {
	var blocks []guideBlock
	kind := ""
	for i := 0; i < len(lines); i++ {
		if m := guideMarkerRE.FindStringSubmatch(lines[i]); m != nil {
			kind = m[1] + m[2]
			continue
		}
		if kind == "" || !strings.HasPrefix(lines[i], "```") {
			continue
		}
		b := guideBlock{kind: kind, open: i}
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			b.body = append(b.body, lines[i])
		}
		require.Less(t, i, len(lines), "an unclosed block at line %d", b.open+1)
		b.stop = i
		blocks = append(blocks, b)
		kind = ""
	}
	return blocks
}

// TestPostgreSQLGuide runs the worked example of docs/postgresql.md
// against a PostgreSQL server started for the test, at batch sizes 1 and
// 4096, each in a fresh database standing for the guide's database shop:
// the PostgreSQL SQL, then wsql's script, and checks each output block,
// psql's and wsql's, against what the commands print (-rewrite writes
// them into the guide).
func TestPostgreSQLGuide(t *testing.T) {
	src, err := os.ReadFile(guidePath)
	require.NoError(t, err)
	lines := strings.Split(string(src), "\n")
	blocks := guideBlocks(t, lines)
	kinds := map[string]int{}
	for _, b := range blocks {
		kinds[b.kind]++
	}
	require.Equal(t, map[string]int{"psql": 1, "wsql": 1, "output": 2}, kinds, "the worked example's blocks")
	pg := pgtest.Start(t)
	const guideURL = "jdbc:postgresql://localhost:5432/shop"
	var runs [][]string // each run's outputs, a block each
	for _, size := range []int{1, 4096} {
		db := pg.NewDatabase(t)
		url := pg.JDBCURLOf(db)
		var wsqlOut string
		outputs := make([]string, len(blocks))
		for i, b := range blocks {
			text := strings.Join(b.body, "\n")
			switch b.kind {
			case "psql":
				pg.Exec(t, db, text)
			case "wsql":
				require.Contains(t, text, "'"+guideURL+"'")
				out := runScript(t, strings.ReplaceAll(text, "'"+guideURL+"'", "'"+url+"'"), size)
				// the summary as the command line prints it, without the
				// time the run took
				wsqlOut = strings.ReplaceAll(strings.ReplaceAll("\n"+out, "\n-- ", "\nwsql: ")[1:], url, guideURL)
			case "output":
				command := strings.TrimPrefix(b.body[0], "$ ")
				switch {
				case strings.HasPrefix(command, "psql shop -c '"):
					outputs[i] = pg.Psql(t, db, strings.TrimSuffix(strings.TrimPrefix(command, "psql shop -c '"), "'"))
				case strings.HasPrefix(command, "wsql run "):
					outputs[i] = wsqlOut
				default:
					t.Fatalf("line %d: an output block starts with the psql or wsql command it shows, not %q", b.open+2, command)
				}
				outputs[i] = strings.TrimRight(outputs[i], "\n")
			}
		}
		runs = append(runs, outputs)
	}
	require.Equal(t, runs[1], runs[0], "batch size 1 differs from 4096")
	if golden.Rewrite() {
		for i := len(blocks) - 1; i >= 0; i-- {
			if b := blocks[i]; b.kind == "output" {
				body := append([]string{b.body[0]}, strings.Split(runs[1][i], "\n")...)
				lines = append(lines[:b.open+1], append(body, lines[b.stop:]...)...)
			}
		}
		require.NoError(t, os.WriteFile(guidePath, []byte(strings.Join(lines, "\n")), 0o644))
		return
	}
	for i, b := range blocks {
		if b.kind == "output" {
			require.Equal(t, strings.Join(b.body[1:], "\n"), runs[1][i], "the output of %q in %s (rewrite with -rewrite)", b.body[0], guidePath)
		}
	}
}
