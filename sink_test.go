package wsql

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The filesystem sink and the bad rows file write files, so these
// end-to-end tests run their SQL against a temporary directory instead of
// being testdata/e2e scripts (which run with the repository as the current
// directory). Each runs with batch sizes 1, 3 and 4096.

const sinkEventsDDL = `CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
`

// runInDir runs src (with DIR replaced by a fresh temporary directory) for
// each batch size and returns the script output and the directory's files,
// which must not depend on the batch size.
func runInDir(t *testing.T, src string) (string, map[string]string) {
	t.Helper()
	var out string
	var files map[string]string
	for _, size := range []int{1, 3, 4096} {
		dir := t.TempDir()
		script := strings.ReplaceAll(src, "DIR", filepath.ToSlash(dir))
		got := strings.ReplaceAll(runScript(t, script, size), filepath.ToSlash(dir), "DIR")
		gotFiles := map[string]string{}
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			gotFiles[e.Name()] = string(b)
		}
		if files == nil {
			out, files = got, gotFiles
			continue
		}
		require.Equal(t, out, got, "batch size %d", size)
		require.Equal(t, files, gotFiles, "batch size %d", size)
	}
	return out, files
}

func TestFilesystemSinkWritesJSONLines(t *testing.T) {
	out, files := runInDir(t, sinkEventsDDL+`
CREATE TABLE results (k STRING, wend TIMESTAMP(3), n BIGINT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out.json', 'format' = 'json');
INSERT INTO results SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*), SUM(w)
FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`)
	require.Equal(t, "-- 9 rows read, 2 late rows dropped, 0 bad rows skipped, 6 result rows\n", out)
	require.Equal(t, map[string]string{"out.json": `{"k":"a","wend":"1970-01-01 00:00:00.000","n":1,"total":10}
{"k":"b","wend":"1970-01-01 00:00:00.000","n":1,"total":null}
{"k":"a","wend":"1970-01-01 00:00:05.000","n":2,"total":70}
{"k":"b","wend":"1970-01-01 00:00:05.000","n":1,"total":50}
{"k":"b","wend":"1970-01-01 00:00:15.000","n":1,"total":60}
{"k":"c","wend":"1970-01-01 00:00:35.000","n":1,"total":90}
`}, files)
}

// TestFilesystemSinkWritesCSV writes into a directory (part-0.csv), with
// no header as Flink's csv format, the columns in the table's order even
// when the INSERT lists them in another.
func TestFilesystemSinkWritesCSV(t *testing.T) {
	out, files := runInDir(t, sinkEventsDDL+`
CREATE TABLE results (k STRING, n BIGINT, wend TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = 'DIR', 'format' = 'csv');
INSERT INTO results (wend, k, n) SELECT TUMBLE_END(ts, INTERVAL '5' SECOND), k, COUNT(*)
FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`)
	require.Equal(t, "-- 9 rows read, 2 late rows dropped, 0 bad rows skipped, 6 result rows\n", out)
	require.Equal(t, map[string]string{"part-0.csv": `a,1,1970-01-01 00:00:00.000
b,1,1970-01-01 00:00:00.000
a,2,1970-01-01 00:00:05.000
b,1,1970-01-01 00:00:05.000
b,1,1970-01-01 00:00:15.000
c,1,1970-01-01 00:00:35.000
`}, files)
}

// TestFilesystemSinkRoundTrip writes JSON with an LTZ column in a session
// zone and reads it back through a json source table.
func TestFilesystemSinkRoundTrip(t *testing.T) {
	out, files := runInDir(t, `
CREATE TABLE by_epoch (epoch BIGINT, txt STRING, usr STRING, n INT, ts AS TO_TIMESTAMP_LTZ(epoch, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
SET 'table.local-time-zone' = 'Asia/Shanghai';
CREATE TABLE days (usr STRING, day_start TIMESTAMP(3), rt TIMESTAMP_LTZ(3), n BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/days.json', 'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601');
INSERT INTO days SELECT usr, TUMBLE_START(ts, INTERVAL '1' DAY), TUMBLE_ROWTIME(ts, INTERVAL '1' DAY), COUNT(*)
FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' DAY);
CREATE TABLE back (usr STRING, day_start TIMESTAMP(3), rt TIMESTAMP_LTZ(3), n BIGINT, WATERMARK FOR rt AS rt - INTERVAL '10' DAY)
WITH ('connector' = 'filesystem', 'path' = 'DIR/days.json', 'format' = 'json', 'json.fail-on-missing-field' = 'true');
SELECT usr, day_start, rt, n FROM back GROUP BY usr, day_start, rt, n, TUMBLE(rt, INTERVAL '1' SECOND);
`)
	require.Equal(t, map[string]string{"days.json": `{"usr":"alice","day_start":"2024-03-01T00:00:00.000","rt":"2024-03-01T23:59:59.999+08:00","n":3}
{"usr":"bob","day_start":"2024-03-01T00:00:00.000","rt":"2024-03-01T23:59:59.999+08:00","n":2}
`}, files)
	// the LTZ instant reads back the same, shown again in Shanghai time
	require.Equal(t, `-- 5 rows read, 0 late rows dropped, 0 bad rows skipped, 2 result rows
usr,day_start,rt,n
alice,2024-03-01 00:00:00.000,2024-03-01 23:59:59.999,3
bob,2024-03-01 00:00:00.000,2024-03-01 23:59:59.999,2
-- 2 rows read, 0 late rows dropped, 0 bad rows skipped, 2 result rows
`, out)
}

func TestFilesystemSinkRefusesUpdates(t *testing.T) {
	out, files := runInDir(t, sinkEventsDDL+`
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE results (k STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'DIR/out.json', 'format' = 'json');
INSERT INTO results SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
`)
	require.Equal(t, `error: 7:13: Table sink 'default_catalog.default_database.results' doesn't support consuming update changes which is produced by node WindowAggregate(window=[TUMBLE(size=5 s)], emit=[early fire every row, as updates]): the 'filesystem' connector writes append-only; RESET 'table.exec.emit.early-fire.enabled' and 'table.exec.emit.late-fire.enabled' to emit each window once, or write to a sink that takes updates ('print', 'blackhole', 'filesystem' with format 'debezium-json', or 'filesystem' in csv or json, 'upsert-kafka' or 'jdbc' with a PRIMARY KEY ... NOT ENFORCED)
INSERT INTO results SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
            ^
`, out)
	require.Empty(t, files, "nothing is created")
}

// TestBadRowsGoToTheBadRowsFile checks 'wsql.bad-rows.path': every line
// skipped under an ignore option, as read, for CSV and JSON sources; each
// query run creates the file anew.
func TestBadRowsGoToTheBadRowsFile(t *testing.T) {
	out, files := runInDir(t, `SET 'wsql.bad-rows.path' = 'DIR/bad.txt';
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
CREATE TABLE j (ts TIMESTAMP(3), usr STRING, ms INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks.jsonl', 'format' = 'json', 'json.ignore-parse-errors' = 'true');
SELECT usr, COUNT(*) AS n FROM j GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
`)
	require.Contains(t, out, "-- 3 rows read, 0 late rows dropped, 2 bad rows skipped, 2 result rows\n")
	require.Contains(t, out, "-- 6 rows read, 0 late rows dropped, 3 bad rows skipped, 3 result rows\n")
	require.Equal(t, map[string]string{"bad.txt": `{"ts": "2024-03-01 10:00:06", "usr": "carol", "page": "/home", "ms": 3.5}
not json
{"usr": "dave", "ms": 1}
`}, files, "the second query's run replaced the first's file")

	_, files = runInDir(t, `SET 'wsql.bad-rows.path' = 'DIR/bad.txt';
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
`)
	require.Equal(t, map[string]string{"bad.txt": "2024-01-01 00:00:02.000,b,x\n,c,4\n"}, files)
}

// TestFilesystemOptionErrors pins the positioned errors of the format
// options of sources and sinks.
func TestFilesystemOptionErrors(t *testing.T) {
	query := "\nSELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);"
	insert := "\nCREATE TABLE src (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');" +
		"\nINSERT INTO t SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE) FROM src GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);"
	for _, c := range []struct{ with, tail, at, want string }{
		{`'format' = 'json', 'json.ignore-parse-error' = 'true'`, query, "'json.ignore-parse-error'",
			"unsupported option 'json.ignore-parse-error' for connector 'filesystem'; did you mean json.ignore-parse-errors?"},
		{`'format' = 'csv', 'json.ignore-parse-errors' = 'true'`, query, "'json.ignore-parse-errors'",
			"option 'json.ignore-parse-errors' belongs to format 'json', but table t has format 'csv'"},
		{`'format' = 'jsn'`, query, "'format'",
			"format 'jsn' is not supported yet (supported: csv, json, debezium-json; parquet for writing only); did you mean json?"},
		{`'format' = 'json', 'json.timestamp-format.standard' = 'RFC'`, query, "'json.timestamp",
			"option 'json.timestamp-format.standard' must be 'SQL' or 'ISO-8601', got 'RFC'"},
		{`'format' = 'json', 'json.fail-on-missing-field' = 'yes'`, query, "'json.fail",
			"option 'json.fail-on-missing-field' must be 'true' or 'false', got 'yes'"},
		{`'format' = 'json', 'json.ignore-parse-errors' = 'true', 'json.fail-on-missing-field' = 'true'`, query, "'json.fail",
			"options 'json.fail-on-missing-field' and 'json.ignore-parse-errors' cannot both be true"},
		{`'format' = 'csv', 'csv.field-delimiter' = ';'`, insert, "'csv.field",
			`option 'csv.field-delimiter' = ';' is not supported for writing yet: a csv sink writes ',' between fields, '"' quotes and NULL as an empty field`},
		{`'format' = 'json', 'sink.rolling-policy.file-sise' = '1MB'`, insert, "'sink.",
			"unsupported option 'sink.rolling-policy.file-sise' for connector 'filesystem'; did you mean sink.rolling-policy.file-size?"},
	} {
		with := "WITH ('connector' = 'filesystem', 'path' = 'x.json', " + c.with + ");"
		src := "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts)\n" + with + c.tail
		out := runScript(t, src, 4096)
		want := fmt.Sprintf("error: 2:%d: %s", strings.Index(with, c.at)+1, c.want)
		require.Equal(t, want, strings.SplitN(out, "\n", 2)[0], src)
	}

	// a sink accepts the source-side options and the csv defaults
	out := runScript(t, `CREATE TABLE t (k STRING) WITH ('connector' = 'filesystem', 'path' = 'x.json', 'format' = 'csv',
 'csv.field-delimiter' = ',', 'csv.ignore-parse-errors' = 'true', 'scan.watermark.idle-timeout' = '1 s');`+
		"\nCREATE TABLE src (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');"+
		"\nEXPLAIN INSERT INTO t SELECT k FROM src GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);", 4096)
	require.True(t, strings.HasPrefix(out, "Sink(table=[t], connector=[filesystem]"), out)
}
