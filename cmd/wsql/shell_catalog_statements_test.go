package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// In the shell, SHOW CREATE TABLE prints the statement as text, as Flink's
// SQL client does, SHOW COLUMNS is a table, and USE of another database
// is an error with a caret while the session goes on.
func TestShellCatalogStatements(t *testing.T) {
	t.Chdir("../..")
	r := runShellLines(t, nil, script(createClicks, "SHOW CREATE TABLE clicks;",
		"SHOW COLUMNS FROM clicks LIKE 'u%';", "USE mydb;", "SHOW CURRENT DATABASE;")...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "CREATE TABLE `default_catalog`.`default_database`.`clicks` (\n"+
		"  `ts` TIMESTAMP(3),\n  `usr` STRING,\n  `amount` DOUBLE,\n"+
		"  WATERMARK FOR `ts` AS ts - INTERVAL '5' SECOND\n) WITH (\n"+
		"  'connector' = 'filesystem',\n  'path' = 'testdata/examples/clicks.csv',\n  'format' = 'csv'\n)\n")
	require.Contains(t, r.stdout, "| usr  | STRING | TRUE | NULL | NULL   | NULL      |\n")
	require.NotContains(t, r.stdout, "| amount")
	require.Contains(t, r.stderr, "database mydb does not exist: wsql has one catalog, default_catalog, with one database, default_database")
	require.Contains(t, r.stdout, "| default_database      |")
}
