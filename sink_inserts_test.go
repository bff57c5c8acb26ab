package wsql

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Two INSERTs of a script into one filesystem sink: the second adds its
// own part files and never replaces the first's rows.

// twoInserts writes 5-second and then 10-second windows of the e2e events
// into one sink at DIR/out.
const (
	resultsDDL = `
CREATE TABLE results (k STRING, wend TIMESTAMP(3), n BIGINT, total BIGINT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'csv');`
	firstInsert = `
INSERT INTO results SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*), SUM(w)
FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);`
	twoInserts = sinkEventsDDL + resultsDDL + firstInsert + `
INSERT INTO results SELECT k, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), SUM(w)
FROM events GROUP BY k, TUMBLE(ts, INTERVAL '10' SECOND);
`
)

// The rows of the first and of the second INSERT (as run alone into a file).
const (
	firstInsertRows = `a,1970-01-01 00:00:00.000,1,10
b,1970-01-01 00:00:00.000,1,
a,1970-01-01 00:00:05.000,2,70
b,1970-01-01 00:00:05.000,1,50
b,1970-01-01 00:00:15.000,1,60
c,1970-01-01 00:00:35.000,1,90
`
	secondInsertRows = `a,1970-01-01 00:00:00.000,1,10
b,1970-01-01 00:00:00.000,1,
a,1970-01-01 00:00:10.000,2,70
b,1970-01-01 00:00:10.000,1,50
b,1970-01-01 00:00:20.000,1,60
c,1970-01-01 00:00:40.000,1,90
`
)

// dirFiles is every file under dir/out by name, hidden ones included.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "out"))
	require.NoError(t, err)
	files := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, "out", e.Name()))
		require.NoError(t, err)
		files[e.Name()] = string(b)
	}
	return files
}

// Without checkpoints the nth INSERT into a directory writes part-<n>.csv.
func TestSecondInsertIntoSinkDirectoryAddsAPartFile(t *testing.T) {
	for _, size := range []int{1, 4096} {
		dir := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(dir, "out"), 0o755))
		out := runScript(t, strings.ReplaceAll(twoInserts, "DIR", filepath.ToSlash(dir)), size)
		require.Equal(t, strings.Repeat("-- 9 rows read, 2 late rows dropped, 0 bad rows skipped, 6 result rows\n", 2), out)
		require.Equal(t, map[string]string{"part-0.csv": firstInsertRows, "part-1.csv": secondInsertRows}, dirFiles(t, dir))
	}
}

// A sink whose path is a file holds one INSERT: the second is refused
// before it opens anything, and the first's rows stay.
func TestSecondInsertIntoSinkFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	script := strings.ReplaceAll(strings.ReplaceAll(twoInserts, "DIR/out", "DIR/out.csv"), "DIR", filepath.ToSlash(dir))
	out := runScript(t, script, 4096)
	require.Contains(t, out, "-- 9 rows read, 2 late rows dropped, 0 bad rows skipped, 6 result rows\nerror: 8:13: sink table results writes the file '"+filepath.ToSlash(dir)+"/out.csv', which an earlier INSERT of this script wrote: a second INSERT would replace those rows; make the sink's 'path' a directory")
	require.Equal(t, 1, strings.Count(out, "rows read"))
	b, err := os.ReadFile(filepath.Join(dir, "out.csv"))
	require.NoError(t, err)
	require.Equal(t, firstInsertRows, string(b))
}

// With checkpoints the first INSERT writes part-NNNNNN.csv and the second
// part-1-NNNNNN.csv, each owned by its query under its own record
// (.wsql-owner.csv, .wsql-owner-1.csv); neither a run again (both
// finished) nor the second resumed after a stop touches the other's files.
func TestCheckpointedInsertsIntoOneSinkKeepBoth(t *testing.T) {
	dir := t.TempDir()
	_, err := runCheckpointed(t, dir, twoInserts)
	require.NoError(t, err)
	want := map[string]string{"part-000000.csv": firstInsertRows, "part-1-000000.csv": secondInsertRows}
	files := dirFiles(t, dir)
	require.Contains(t, files[".wsql-owner.csv"], "query-1-")
	require.Contains(t, files[".wsql-owner-1.csv"], "query-2-")
	require.Equal(t, want, visibleFiles(files))
	notices, err := runCheckpointed(t, dir, twoInserts)
	require.NoError(t, err)
	require.Len(t, notices, 2, "both already finished")
	require.Equal(t, files, dirFiles(t, dir), "nothing changed, the owner records included")

	// The second INSERT reads many rows and is stopped part way.
	gen := `
CREATE TABLE g (k INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = 'RATE', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '3', 'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '19999999');
INSERT INTO results SELECT CAST(k AS STRING), CAST(TUMBLE_END(ts, INTERVAL '1' SECOND) AS TIMESTAMP(3)), COUNT(*), SUM(ms)
FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND);
`
	firstThen := func(rate string) string {
		return sinkEventsDDL + resultsDDL + firstInsert + strings.ReplaceAll(gen, "RATE", rate)
	}
	ref := t.TempDir()
	_, err = runCheckpointed(t, ref, firstThen("0"))
	require.NoError(t, err)
	wantGen := dirFiles(t, ref)
	require.Equal(t, firstInsertRows, wantGen["part-000000.csv"])

	dir = t.TempDir()
	_, err = runCheckpointedUntil(t, dir, firstThen("20000"), 5000)
	require.Error(t, err, "stopped part way")
	require.Equal(t, firstInsertRows, dirFiles(t, dir)["part-000000.csv"])
	notices, err = runCheckpointed(t, dir, firstThen("20000"))
	require.NoError(t, err)
	require.Contains(t, strings.Join(notices, "\n"), "query 1 already finished")
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 2")
	require.Equal(t, concatParts(wantGen), concatParts(dirFiles(t, dir)))
	require.Equal(t, firstInsertRows, dirFiles(t, dir)["part-000000.csv"])
}

// visibleFiles is files without the hidden ones.
func visibleFiles(files map[string]string) map[string]string {
	out := map[string]string{}
	for n, b := range files {
		if !strings.HasPrefix(n, ".") {
			out[n] = b
		}
	}
	return out
}

// concatParts is the committed part files' rows in name order.
func concatParts(files map[string]string) string {
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		if !strings.HasPrefix(n, ".") {
			b.WriteString(files[n])
		}
	}
	return b.String()
}
