package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// ctrlC in a script of lines stands for pressing Ctrl-C at the prompt.
const ctrlC = "\x03"

// fakeLines is a LineSource over a script; it records the prompts shown.
type fakeLines struct {
	lines   []string
	prompts []string
	prompt  string
}

func (f *fakeLines) SetPrompt(p string) { f.prompt = p }

func (f *fakeLines) Readline() (string, error) {
	if len(f.lines) == 0 {
		return "", io.EOF
	}
	line := f.lines[0]
	f.lines = f.lines[1:]
	f.prompts = append(f.prompts, f.prompt)
	if strings.HasSuffix(line, ctrlC) {
		return strings.TrimSuffix(line, ctrlC), errInterrupt
	}
	return line, nil
}

const createClicks = `CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');`

const selectClicks = `SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart, COUNT(*) AS n
FROM clicks
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`

type shellRun struct {
	code           int
	stdout, stderr string
	in             *fakeLines
	sh             *shell
}

func runShellLines(t *testing.T, setup func(*shell), lines ...string) shellRun {
	t.Helper()
	var out, errOut bytes.Buffer
	in := &fakeLines{lines: lines}
	sh := newShell(wsql.New(), in, &out, &errOut)
	if setup != nil {
		setup(sh)
	}
	code := sh.run(context.Background())
	return shellRun{code: code, stdout: out.String(), stderr: errOut.String(), in: in, sh: sh}
}

// script splits SQL text into the lines a person would type.
func script(texts ...string) []string {
	var lines []string
	for _, t := range texts {
		lines = append(lines, strings.Split(t, "\n")...)
	}
	return lines
}

// A statement typed over several lines runs when its ';' comes, on the one
// Engine of the session: the table created first is there for the query.
func TestShellMultiLineStatementsShareTheSession(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, script(createClicks, selectClicks)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "| usr   | wstart                  |    n |")
	require.Contains(t, r.stdout, "10 rows")
	require.Regexp(t, `wsql: 42 rows read, 2 late rows dropped, 0 bad rows skipped, 10 result rows in \S+\n`, r.stderr)
	require.Equal(t, []string{prompt, contPrompt, contPrompt, contPrompt, contPrompt, contPrompt, prompt, contPrompt, contPrompt}, r.in.prompts)
}

func TestShellSeveralStatementsOnOneLineAndARest(t *testing.T) {
	r := runShellLines(t, nil, "SET 'table.local-time-zone' = 'UTC'; SHOW", "TABLES;")
	require.Equal(t, 0, r.code)
	require.Equal(t, []string{prompt, contPrompt}, r.in.prompts)
	require.NotContains(t, r.stderr, "error")
}

func TestShellMetaCommands(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, `\d`, createClicks, "CREATE VIEW alice AS SELECT ts, amount FROM clicks WHERE usr = 'alice';",
		`\d`, `\d clicks`, `\d ALICE;`, "\\d `clicks`", `\help`, "help;", `\nope`, `\q`, "SELECT 1;")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "no tables yet")
	// \d lists name, kind and connector, as psql's \d does
	require.Contains(t, r.stdout, `
+--------+-------+------------+
| name   | kind  | connector  |
+--------+-------+------------+
| alice  | view  | NULL       |
| clicks | table | filesystem |
+--------+-------+------------+
2 rows
`)
	// \d clicks, \d ALICE; (a view, any case, a ';') and \d `clicks` describe
	require.Equal(t, 3, strings.Count(r.stdout, "| amount | DOUBLE "))
	require.Contains(t, r.stdout, "| ts     | TIMESTAMP(3) | TRUE | NULL | NULL   | NULL      |\n")
	require.Equal(t, 2, strings.Count(r.stdout, `\timing [on|off]`))
	require.Equal(t, 2, strings.Count(r.stdout, `SET 'sql-client.execution.result-mode' = 'changelog';`))
	require.Contains(t, r.stderr, `unknown command \nope`)
	require.Equal(t, []string{"SELECT 1;"}, r.in.lines, "nothing after \\q is read")

	for _, quit := range []string{"quit", "exit", "exit;", `\q`} {
		r = runShellLines(t, nil, quit, `\help`)
		require.Equal(t, 0, r.code)
		require.Equal(t, []string{`\help`}, r.in.lines, quit)
	}
}

func TestShellErrorShowsCaretAndGoesOn(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, "SELECT usr", "FORM clicks;", `\d x y`, createClicks, `\d nosuch`, `\d clikcs`, `\d`)
	require.Equal(t, 0, r.code)
	require.Contains(t, r.stderr, "error: 2:1: ")
	require.Contains(t, r.stderr, "\nFORM clicks;\n^")
	require.Contains(t, r.stderr, "error: \\d takes at most one table name\n")
	// a name \d does not know: said plainly, no statement echoed, no caret
	require.Contains(t, r.stderr, "\nerror: table or view nosuch does not exist\nerror: table or view clikcs does not exist; did you mean clicks?\n")
	require.NotContains(t, r.stderr, "DESCRIBE")
	require.True(t, strings.HasSuffix(r.stdout, "| clicks | table | filesystem |\n+--------+-------+------------+\n1 row\n"), r.stdout)
}

func TestShellFormatAndTiming(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, append(script(createClicks), `\format csv`, `\timing`, selectClicks, `\timing`, `\format xml`, `\format`)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Format is csv.\nTiming is on.\nusr,wstart,n\n")
	require.Regexp(t, `\nTime: \d+\.\d{3} ms\nTiming is off\.\nFormat is csv\.\n$`, r.stdout)
	require.Contains(t, r.stderr, `\format takes table, csv or json`)
}

// Ctrl-C while a statement runs cancels its context; the shell goes on.
func TestShellInterruptCancelsTheRunningQuery(t *testing.T) {
	t.Chdir("../..")
	watched := 0
	r := runShellLines(t, func(sh *shell) {
		sh.watchInterrupt = func(cancel context.CancelFunc) func() {
			watched++
			if watched == 2 { // the SELECT: Ctrl-C as it starts
				cancel()
			}
			return func() {}
		}
	}, append(script(createClicks, selectClicks), `\d`)...)
	require.Equal(t, 0, r.code)
	require.Equal(t, 2, watched)
	require.Contains(t, r.stderr, "wsql: query cancelled")
	require.NotContains(t, r.stdout, "10 rows")
	require.True(t, strings.HasSuffix(r.stdout, "| clicks | table | filesystem |\n+--------+-------+------------+\n1 row\n"), r.stdout)
}

func TestShellEndsWhenItsContextIsCancelled(t *testing.T) {
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := &fakeLines{lines: []string{"SELECT 1;", `\help`}}
	code := newShell(wsql.New(), in, &out, &errOut).run(ctx)
	require.Equal(t, 130, code)
	require.Equal(t, []string{`\help`}, in.lines)
}

func TestShellCtrlCAtThePrompt(t *testing.T) {
	// once: a hint; a line in between resets it
	r := runShellLines(t, nil, ctrlC, `\timing`, ctrlC, `\timing`)
	require.Equal(t, 0, r.code)
	require.Equal(t, 2, strings.Count(r.stderr, ctrlCHint))
	require.Contains(t, r.stdout, "Timing is off.")

	// twice in a row: exit
	r = runShellLines(t, nil, ctrlC, ctrlC, `\help`)
	require.Equal(t, 0, r.code)
	require.Equal(t, 1, strings.Count(r.stderr, ctrlCHint))
	require.Equal(t, []string{`\help`}, r.in.lines)

	// on a half-typed statement or line: drops it, no hint
	r = runShellLines(t, nil, "SELECT", "FROM"+ctrlC, "SELEC"+ctrlC, ctrlC, ctrlC)
	require.Equal(t, 0, r.code)
	require.Equal(t, 1, strings.Count(r.stderr, ctrlCHint))
	require.Equal(t, []string{prompt, contPrompt, prompt, prompt, prompt}, r.in.prompts)
	require.NotContains(t, r.stderr, "error")
}

func TestShellCompletion(t *testing.T) {
	t.Chdir("../..")
	e := wsql.New()
	require.NoError(t, e.Run(context.Background(), createClicks, wsql.Output{}))
	sh := newShell(e, nil, io.Discard, io.Discard)
	complete := func(line string) []string {
		_, c := sh.complete([]rune(line), len([]rune(line)))
		return c
	}
	require.Contains(t, complete("sel"), "select")
	require.Contains(t, complete("SEL"), "SELECT")
	require.Contains(t, complete("SELECT CO"), "COUNT")
	require.Contains(t, complete("SELECT u"), "usr")
	require.Contains(t, complete("SELECT am"), "amount")
	require.Equal(t, []string{"clicks"}, complete("SELECT usr FROM "))
	require.Equal(t, []string{"clicks"}, complete("SELECT usr FROM cl"))
	require.Equal(t, []string{"clicks.amount"}, complete("SELECT clicks.am"))
	require.Equal(t, []string{`\timing`}, complete(`\ti`))
	require.Equal(t, []string{"clicks"}, complete(`\d c`))
	require.Equal(t, []string{"csv"}, complete(`\format c`))
	require.Empty(t, complete("SELECT "))
	require.Equal(t, []string{"table.local-time-zone"}, complete("SET 'table.lo"))
	require.Equal(t, []string{"parallelism.default"}, complete("reset 'para"))
	require.Equal(t, wsql.SettingKeys(), complete("SET '"))
	// WITH options from the connector and format registries
	require.Equal(t, []string{"datagen"}, complete("CREATE TABLE t (n INT) WITH ('connector' = 'da"))
	require.Equal(t, []string{"json"}, complete("CREATE TABLE t (n INT) WITH ('connector' = 'filesystem', 'format' = 'js"))
	require.Equal(t, []string{"number-of-rows"}, complete("CREATE TABLE t (n INT) WITH ('connector' = 'datagen', 'num"))
	require.Contains(t, complete("CREATE TABLE t (n INT) WITH ('connector' = 'filesystem', 'csv.ig"), "csv.ignore-parse-errors")

	// the pending lines count: a table named on an earlier line
	sh.setPending("SELECT *\n")
	require.Equal(t, []string{"clicks"}, complete("FROM c"))

	// readline's adapter hands back the rest of each candidate
	rest, n := completer{sh}.Do([]rune("SELECT usr FROM cl"), 18)
	require.Equal(t, 2, n)
	require.Equal(t, [][]rune{[]rune("icks ")}, rest)
}

func TestSplitStatements(t *testing.T) {
	stmts, rest := splitStatements("SELECT ';' AS a; -- c;\nSELECT `x;y`, 'it''s;' /* ; */ FROM t;\n;  SELECT 1")
	require.Equal(t, []string{"SELECT ';' AS a;", "-- c;\nSELECT `x;y`, 'it''s;' /* ; */ FROM t;"}, stmts)
	require.Equal(t, "  SELECT 1", rest)

	stmts, rest = splitStatements("SELECT 'a;\n")
	require.Empty(t, stmts)
	require.Equal(t, "SELECT 'a;\n", rest)

	stmts, _ = splitStatements("/* a; */ ;\n-- b\n;")
	require.Empty(t, stmts)

	require.True(t, isBlank("  -- x\n /* y */\n"))
	require.False(t, isBlank("/* open\n"))
	require.False(t, isBlank("SELECT"))
}

func TestShellJSONFormatAndArrowRefused(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, append(script(createClicks), `\format arrow`, `\format json`, selectClicks)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stderr, `\format arrow is binary output`)
	require.Contains(t, r.stdout, "Format is json.\n{\"usr\":")
}

// The status line shows a running query's progress and is erased before
// results and at the end, so it never mixes with them.
func TestStatusLineDrawsAndClears(t *testing.T) {
	var errOut bytes.Buffer
	st := &statusLine{w: &errOut}
	st.update(wsql.Progress{RowsRead: 1000, Watermark: 60_000, OpenWindows: 3, LateRowsDropped: 2, Elapsed: 2 * time.Second})
	require.Contains(t, errOut.String(), "1000 rows (500 rows/s) · watermark 1970-01-01 00:01:00.000 · 3 open windows · 2 late · 2s")
	st.clear()
	require.True(t, strings.HasSuffix(errOut.String(), "\r\x1b[K"))
	n := errOut.Len()
	st.clear() // idempotent: nothing drawn, nothing erased
	require.Equal(t, n, errOut.Len())
}
