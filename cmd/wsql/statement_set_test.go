package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const (
	createSinks = `CREATE TABLE per_user (usr STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'per_user');
CREATE TABLE nowhere (usr STRING, amount DOUBLE) WITH ('connector' = 'blackhole');`
	insertPerUser = `INSERT INTO per_user SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`
	insertNowhere = `INSERT INTO nowhere SELECT usr, amount FROM clicks WHERE amount > 40;`
)

// The SQL client's BEGIN STATEMENT SET in the shell: each INSERT is kept
// (and said so) until END runs them as one job reading clicks once; a
// statement other than INSERT is refused with its position and the set
// stays open; an empty set submits nothing.
func TestShellStatementSet(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, script(createClicks, createSinks,
		"BEGIN STATEMENT SET;", insertPerUser, "SHOW TABLES;", insertNowhere, "END;",
		"BEGIN STATEMENT SET;", "END;")...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, `[INFO] Begin a statement set.
[INFO] Add SQL update statement to the statement set.
[INFO] Add SQL update statement to the statement set.
`, strings.Join(grepLines(r.stdout, "[INFO]")[:3], ""))
	require.Contains(t, r.stdout, "[INFO] No statement in the statement set, skip submit.\n")
	require.Contains(t, r.stderr, "error: 1:1: only INSERT statements are allowed in a statement set, found SHOW\nSHOW TABLES;\n^")
	require.Len(t, grepLines(r.stdout, "per_user> +I["), 10)
	// one job: clicks read once, the results of both INSERTs
	require.Regexp(t, `wsql: 42 rows read, 2 late rows dropped, 0 bad rows skipped, 19 result rows in \S+\n`, r.stderr)
	require.Equal(t, 1, strings.Count(r.stderr, "rows read"))
}

// EXECUTE STATEMENT SET typed over several lines runs at its END; until
// then the shell shows the continuation prompt.
func TestShellExecuteStatementSet(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, script(createClicks, createSinks,
		"EXECUTE STATEMENT SET", "BEGIN", insertPerUser, insertNowhere, "END;",
		"EXPLAIN STATEMENT SET BEGIN "+insertPerUser, insertNowhere+" END;")...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, []string{contPrompt, contPrompt, contPrompt, contPrompt, prompt, contPrompt}, r.in.prompts[len(r.in.prompts)-6:])
	require.Len(t, grepLines(r.stdout, "per_user> +I["), 10)
	require.Regexp(t, `wsql: 42 rows read, 2 late rows dropped, 0 bad rows skipped, 19 result rows in \S+\n`, r.stderr)
	require.Contains(t, r.stdout, "StatementSet(inserts=[2], scans=[1]")
	require.Equal(t, 2, strings.Count(r.stdout, "scan=[1], shared by inserts=[1, 2])"))
}

func grepLines(text, prefix string) []string {
	var out []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// `wsql run` of a statement set writing two filesystem sinks: each sink
// holds what its INSERT writes alone, the input read once.
func TestRunStatementSetFile(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	clicks := filepath.Join(root, "testdata/examples/clicks.csv")
	tables := `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = '` + clicks + `', 'format' = 'csv');
CREATE TABLE a (usr STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'a', 'format' = 'csv');
CREATE TABLE b (usr STRING, amount DOUBLE) WITH ('connector' = 'filesystem', 'path' = 'b', 'format' = 'csv');
`
	insA := "INSERT INTO a SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);\n"
	insB := "INSERT INTO b SELECT usr, amount FROM clicks WHERE amount > 40;\n"
	run := func(dir, script string, args ...string) (int, string) {
		t.Chdir(dir)
		require.NoError(t, os.WriteFile("q.sql", []byte(script), 0o644))
		code, _, stderr := runCLI(t, "", append([]string{"run", "q.sql"}, args...)...)
		return code, stderr
	}
	read := func(dir, path string) string {
		b, err := os.ReadFile(filepath.Join(dir, path))
		require.NoError(t, err)
		return string(b)
	}
	// (batch sizes 1 and 4096 and parallelism 3: testdata/e2e/statement_set.sql)
	for _, parallelism := range []string{"1", "2"} {
		set := "SET 'parallelism.default' = '" + parallelism + "';\n"
		alone := t.TempDir()
		code, stderr := run(alone, set+tables+insA+insB)
		require.Equal(t, 0, code, stderr)
		both := t.TempDir()
		code, stderr = run(both, set+tables+"EXECUTE STATEMENT SET BEGIN\n"+insA+insB+"END;\n")
		require.Equal(t, 0, code, stderr)
		require.Regexp(t, `^wsql: 42 rows read, 2 late rows dropped, 0 bad rows skipped, 19 result rows in \S+\n$`, stderr)
		require.Equal(t, read(alone, "a"), read(both, "a"))
		require.Equal(t, read(alone, "b"), read(both, "b"))
		require.Contains(t, read(both, "b"), "alice,")
	}

	// a statement set never ended: nothing of it runs
	dir := t.TempDir()
	code, stderr := run(dir, tables+"BEGIN STATEMENT SET;\n"+insA)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "error: q.sql:5:1: this statement set has no END: its 1 INSERT statement(s) did not run; end it with END;\nBEGIN STATEMENT SET;\n^")
	require.NoFileExists(t, filepath.Join(dir, "a"))

	// an INSERT of a set reading what another writes is refused: they run
	// at the same time
	dir = t.TempDir()
	code, stderr = run(dir, tables+insA)
	require.Equal(t, 0, code, stderr)
	code, stderr = run(dir, tables+`CREATE TABLE again (usr STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'a', 'format' = 'csv');
EXECUTE STATEMENT SET BEGIN
`+insA+"INSERT INTO b SELECT usr, CAST(n AS DOUBLE) FROM again;\nEND;\n")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "error: q.sql:7:13: the 'path' of sink table a 'a' is the same file as 'a', which table again reads: writing it would destroy that input")
	before := read(dir, "a")

	// checkpoints of a statement set are refused before anything runs
	code, stderr = run(dir, tables+"EXECUTE STATEMENT SET BEGIN\n"+insA+insB+"END;\n", "--checkpoint-dir", "ckp")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "error: q.sql:5:1: checkpoints of a statement set are not supported yet ('execution.checkpointing.dir' is set): run its INSERTs as separate statements to checkpoint them")
	require.Equal(t, before, read(dir, "a"))
}

// On a terminal: BEGIN STATEMENT SET, the INSERTs acknowledged one by
// one, a refused statement, END running the set as one job; then
// EXECUTE STATEMENT SET typed over lines under the continuation prompt.
func TestShellStatementSetOnPseudoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"))
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');`)
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE per_user (usr STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'per_user');`)
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE nowhere (usr STRING, amount DOUBLE) WITH ('connector' = 'blackhole');`)
	s.expect(prompt, ptyWait)

	s.line(`BEGIN STATEMENT SET;`)
	s.expect("[INFO] Begin a statement set.", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(insertPerUser)
	s.expect("[INFO] Add SQL update statement to the statement set.", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`SELECT 1;`)
	s.expect("only INSERT statements are allowed in a statement set, found SELECT", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(insertNowhere)
	s.expect("[INFO] Add SQL update statement to the statement set.", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`END;`)
	s.expect("per_user> +I[carol, 3]", ptyWait)
	s.expect("wsql: 42 rows read, 2 late rows dropped, 0 bad rows skipped, 19 result rows", ptyWait)
	s.expect(prompt, ptyWait)

	s.line(`EXECUTE STATEMENT SET`)
	s.expect(contPrompt, ptyWait)
	s.line(`BEGIN ` + insertPerUser)
	s.expect(contPrompt, ptyWait)
	s.line(insertNowhere)
	s.expect(contPrompt, ptyWait)
	s.line(`END;`)
	s.expect("per_user> +I[carol, 3]", ptyWait)
	s.expect("wsql: 42 rows read, 2 late rows dropped, 0 bad rows skipped, 19 result rows", ptyWait)
	s.expect(prompt, ptyWait)
	s.line(`\q`)
	require.Equal(t, 0, s.wait(ptyWait))
}

// EXECUTE STATEMENT SET typed over lines is one history entry, saved at
// its END, which runs the set again when recalled.
func TestShellHistoryKeepsAStatementSetAsOneEntry(t *testing.T) {
	t.Chdir("../..")
	entries, _, stderr := historyOf(t, "EXECUTE STATEMENT SET", "BEGIN", insertPerUser, insertNowhere, "END;")
	require.Contains(t, stderr, "error: 3:13: sink table per_user does not exist") // no tables: the set is refused whole
	require.Equal(t, []string{"EXECUTE STATEMENT SET BEGIN " + insertPerUser + " " + insertNowhere + " END;"}, entries)
}

// A table read once for two INSERTs writes each of its bad rows once to
// 'wsql.bad-rows.path' and counts it once: the line that does not parse
// and the row too far in the future alike.
func TestRunStatementSetBadRowsOnce(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("in.csv", []byte("2024-01-01 00:00:01,a,1\n2024-01-01 00:00:02,b,x\n2099-01-01 00:00:00,c,3\n2024-01-01 00:00:03,a,4\n"), 0o644))
	script := `SET 'wsql.bad-rows.path' = 'bad.csv';
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'in.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true', 'scan.watermark.max-future' = '1 h');
CREATE TABLE n (k STRING, c BIGINT) WITH ('connector' = 'print');
CREATE TABLE s (k STRING, v INT) WITH ('connector' = 'blackhole');
EXECUTE STATEMENT SET BEGIN
  INSERT INTO s SELECT k, v FROM t;
  INSERT INTO n SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
END;
`
	require.NoError(t, os.WriteFile("q.sql", []byte(script), 0o644))
	code, stdout, stderr := runCLI(t, "", "run", "q.sql")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "+I[a, 2]\n", stdout)
	require.Regexp(t, `^wsql: 2 rows read, 0 late rows dropped, 2 bad rows skipped, 3 result rows in \S+\n$`, stderr)
	bad, err := os.ReadFile("bad.csv")
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(bad), "2024-01-01 00:00:02,b,x\n"), string(bad))
	require.Equal(t, 1, strings.Count(string(bad), "# table t, column ts: 2099-01-01 00:00:00.000 is past the bound"), string(bad))
	require.Equal(t, 1, strings.Count(string(bad), "\n2099-01-01 00:00:00.000,c,3\n"), string(bad))
}
