package main

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

func completionShell(t *testing.T) *shell {
	t.Helper()
	t.Chdir("../..")
	e := wsql.New()
	require.NoError(t, e.Run(context.Background(), createClicks, wsql.Output{}))
	return newShell(e, nil, io.Discard, io.Discard)
}

// With nothing typed, Tab lists the columns of the tables the statement
// names where a column fits: after WHERE, AND, SELECT, GROUP BY, an
// operator or a comma, even when the table comes after the cursor.
func TestShellCompletesColumnsOfTheNamedTables(t *testing.T) {
	sh := completionShell(t)
	complete := func(line string, pos int) []string {
		if pos < 0 {
			pos = len([]rune(line))
		}
		_, c := sh.complete([]rune(line), pos)
		return c
	}
	cols := []string{"ts", "usr", "amount"}
	require.Equal(t, cols, complete("SELECT * FROM clicks WHERE ", -1))
	require.Equal(t, cols, complete("SELECT * FROM clicks WHERE usr = 'bob' AND ", -1))
	require.Equal(t, cols, complete("SELECT * FROM clicks WHERE amount > ", -1))
	require.Equal(t, cols, complete("SELECT usr, COUNT(*) FROM clicks GROUP BY ", -1))
	require.Equal(t, cols, complete("SELECT usr, COUNT(*) FROM clicks GROUP BY usr, ", -1))
	require.Equal(t, cols, complete("SELECT  FROM clicks", len("SELECT ")))
	require.Contains(t, complete("SELECT * FROM clicks WHERE u", -1), "usr")
	// where a column does not fit, or no table is named, nothing
	require.Empty(t, complete("SELECT * FROM clicks ", -1))
	require.Empty(t, complete("SELECT * FROM nope WHERE ", -1))
	require.Empty(t, complete("SELECT ", -1))
	// a comma in FROM is followed by a table
	require.Equal(t, []string{"clicks"}, complete("SELECT * FROM clicks, ", -1))
	// an alias's columns
	require.Equal(t, []string{"c.amount"}, complete("SELECT * FROM clicks c WHERE c.am", -1))
	require.Equal(t, []string{"c.ts", "c.usr", "c.amount"}, complete("SELECT c. FROM clicks AS c", len("SELECT c.")))
	// the pending lines name the table
	sh.setPending("SELECT *\nFROM clicks\n")
	require.Equal(t, cols, complete("WHERE ", -1))
	sh.setPending("")

	// a view's columns, named by its column list or its query
	require.NoError(t, sh.engine.Run(context.Background(), `CREATE VIEW big AS SELECT usr, amount * 2 AS twice FROM clicks;
CREATE VIEW renamed (who) AS SELECT usr FROM clicks;`, wsql.Output{}))
	require.Equal(t, []string{"usr", "twice"}, complete("SELECT * FROM big WHERE ", -1))
	require.Equal(t, []string{"who"}, complete("SELECT * FROM renamed WHERE ", -1))
}

// The values of WITH options come from the option schemas of the
// connector and format registries.
func TestShellCompletesWithOptionValues(t *testing.T) {
	sh := completionShell(t)
	complete := func(line string) []string {
		_, c := sh.complete([]rune(line), len([]rune(line)))
		return c
	}
	const create = "CREATE TABLE t (n INT) WITH ("
	require.Equal(t, []string{"bid"}, complete(create+"'connector' = 'nexmark', 'nexmark.table' = 'b"))
	require.Equal(t, []string{"person", "auction", "bid"}, complete(create+"'connector' = 'nexmark', 'nexmark.table' = '"))
	require.Equal(t, []string{"true", "false"}, complete(create+"'connector' = 'filesystem', 'csv.ignore-first-line' = '"))
	require.Equal(t, []string{"ISO-8601"}, complete(create+"'format' = 'json', 'json.timestamp-format.standard' = 'IS"))
	// the formats the connector takes, all of them for one without
	require.Equal(t, []string{"csv", "json", "debezium-json", "parquet"}, complete(create+"'connector' = 'filesystem', 'format' = '"))
	require.Equal(t, wsql.FormatNames(), complete(create+"'format' = '"))
	// a free value: nothing, rather than keywords
	require.Empty(t, complete(create+"'connector' = 'filesystem', 'path' = 'da"))
	// a key typed up to a '-'
	require.Equal(t, []string{"number-of-rows"}, complete(create+"'connector' = 'datagen', 'number-of"))
	// not in WITH: a string, no completion of its own
	require.Empty(t, complete("SELECT * FROM clicks WHERE usr = 'a"))

	// readline's adapter closes the quote, unless it is there already
	line := []rune(create + "'connector' = 'datag")
	rest, n := completer{sh}.Do(line, len(line))
	require.Equal(t, 5, n)
	require.Equal(t, [][]rune{[]rune("en'")}, rest)
	line = []rune(create + "'connector' = 'datag'")
	rest, _ = completer{sh}.Do(line, len(line)-1)
	require.Equal(t, [][]rune{[]rune("en")}, rest)
	line = []rune("SET 'table.lo")
	rest, _ = completer{sh}.Do(line, len(line))
	require.Equal(t, [][]rune{[]rune("cal-time-zone'")}, rest)
}
