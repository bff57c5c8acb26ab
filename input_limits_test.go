package wsql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCSVWithCROnlyLineEnds reads a file whose lines end in a lone '\r'
// (old Mac exports) as rows, with line numbers in bad rows that count
// those line ends, and CRLF and LF files the same.
func TestCSVWithCROnlyLineEnds(t *testing.T) {
	in := t.TempDir()
	rows := []string{"ts,k,v", "2024-03-01 10:00:01,a,1", "2024-03-01 10:00:02,b,x", "2024-03-01 10:00:03,a,3", "2024-03-01 10:01:30,b,4"}
	for _, end := range []string{"\r", "\r\n", "\n"} {
		path := filepath.Join(in, "cr.csv")
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(rows, end)+end), 0o644))
		out, files := runInDir(t, `SET 'wsql.bad-rows.path' = 'DIR/bad.txt';
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '`+filepath.ToSlash(path)+`', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true', 'csv.ignore-first-line' = 'true');
SELECT k, COUNT(*) AS n, SUM(v) AS s FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
`)
		require.Contains(t, out, "a,2,4\n", "line end %q", end)
		require.Contains(t, out, "-- 3 rows read, 0 late rows dropped, 1 bad rows skipped, 2 result rows\n", "line end %q", end)
		require.Equal(t, map[string]string{"bad.txt": "2024-03-01 10:00:02,b,x\n"}, files, "line end %q", end)
	}
	// Without ignore-parse-errors the error names the line.
	path := filepath.Join(in, "cr.csv")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(rows, "\r")+"\r"), 0o644))
	out := runScript(t, `CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '`+filepath.ToSlash(path)+`', 'format' = 'csv', 'csv.ignore-first-line' = 'true');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
`, 4096)
	require.Contains(t, out, path+":3:3 (column v): cannot parse \"x\" as INT: invalid integer")
}

// TestMaxRecordBytes checks 'wsql.max-record-bytes': a record longer than
// it is a bad row (counted, a '#' line naming it in the bad-rows file) and
// the rows after it are read; without an ignore option it is an error with
// file and line; a bad value is refused at SET.
func TestMaxRecordBytes(t *testing.T) {
	in := t.TempDir()
	path := filepath.Join(in, "long.csv")
	long := strings.Repeat("z", 3000)
	data := "2024-03-01 10:00:01,a,1\n2024-03-01 10:00:02,\"" + long + "\n" + long + "\",2\n2024-03-01 10:00:03,a,3\n" +
		"2024-03-01 10:00:04," + long + ",4\n2024-03-01 10:01:30,b,5\n"
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	jpath := filepath.Join(in, "long.jsonl")
	require.NoError(t, os.WriteFile(jpath, []byte(`{"ts":"2024-03-01 10:00:01","k":"a","v":1}`+"\n"+`{"ts":"2024-03-01 10:00:02","k":"`+long+"\"}\n"+`{"ts":"2024-03-01 10:01:30","k":"b","v":5}`+"\n"), 0o644))
	reason := ": record longer than 2048 bytes ('wsql.max-record-bytes'): look for a missing line end or an unclosed quote, or raise the setting\n"
	out, files := runInDir(t, `SET 'wsql.max-record-bytes' = '2 kb';
SET 'wsql.bad-rows.path' = 'DIR/bad.txt';
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '`+filepath.ToSlash(path)+`', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
SELECT k, COUNT(*) AS n, SUM(v) AS s FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
`)
	require.Contains(t, out, "a,2,4\n")
	require.Contains(t, out, "-- 3 rows read, 0 late rows dropped, 2 bad rows skipped, 2 result rows\n")
	require.Equal(t, map[string]string{"bad.txt": "# " + path + ":2" + reason + "# " + path + ":5" + reason}, files)

	out, files = runInDir(t, `SET 'wsql.max-record-bytes' = '2048';
SET 'wsql.bad-rows.path' = 'DIR/bad.txt';
CREATE TABLE j (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '`+filepath.ToSlash(jpath)+`', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
SELECT k, COUNT(*) AS n FROM j GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
`)
	require.Contains(t, out, "-- 2 rows read, 0 late rows dropped, 1 bad rows skipped, 2 result rows\n")
	require.Equal(t, map[string]string{"bad.txt": "# " + jpath + ":2: line" + strings.TrimPrefix(reason, ": record")}, files)

	out = runScript(t, `SET 'wsql.max-record-bytes' = '2 kb';
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '`+filepath.ToSlash(path)+`', 'format' = 'csv');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
`, 4096)
	require.Contains(t, out, path+":2"+strings.TrimSuffix(reason, "\n"))

	out = runScript(t, "SET 'wsql.max-record-bytes' = '64 parsecs';\n", 4096)
	require.Contains(t, out, "invalid 'wsql.max-record-bytes' \"64 parsecs\": use a positive size such as '512 kb', '64 mb', '1 gb' or a number of bytes")
	out = runScript(t, "SET 'wsql.max-record-bytes' = '2 gb';\n", 4096)
	require.Contains(t, out, "invalid 'wsql.max-record-bytes' \"2 gb\": use at most '1 gb'")
}
