package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConstructedValuesInEveryOutput: ARRAY[...], MAP[...] and ROW(...)
// are written as nested JSON by --format json and by a filesystem sink in
// the json format, and in Flink's text ([1, 2], {k=[x]}, (1, x)) by the
// CSV and table output.
func TestConstructedValuesInEveryOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	query := "SELECT ARRAY[1, 2] AS a, MAP['k', ARRAY['x', NULL]] AS m, ROW(1, 'x') AS r"
	code, stdout, stderr := runCLI(t, "", "--format", "json", "-e", query+";")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, `{"a":[1,2],"m":{"k":["x",null]},"r":{"EXPR$0":1,"EXPR$1":"x"}}`+"\n", stdout)

	code, stdout, stderr = runCLI(t, "", "--format", "csv", "-e", query+";")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "a,m,r\n\"[1, 2]\",\"{k=[x, null]}\",\"(1, x)\"\n", stdout)

	code, _, stderr = runCLI(t, "", "-e", `CREATE TABLE written (a ARRAY<INT>, m MAP<STRING, ARRAY<STRING>>, r ROW<EXPR$0 INT, EXPR$1 STRING>)
WITH ('connector' = 'filesystem', 'path' = 'out', 'format' = 'json');
INSERT INTO written `+query+";")
	require.Equal(t, 0, code, stderr)
	written, err := os.ReadFile(filepath.Join(dir, "out"))
	require.NoError(t, err)
	require.Equal(t, `{"a":[1,2],"m":{"k":["x",null]},"r":{"EXPR$0":1,"EXPR$1":"x"}}`+"\n", string(written))
}
