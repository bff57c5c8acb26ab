package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The JSON lines carry the CSV's rows: each line's three values, decoded,
// are the CSV line's fields, with the same text for the value.
func TestBenchJSONDataMatchesCSV(t *testing.T) {
	const n = 20000
	var c, j bytes.Buffer
	require.NoError(t, writeBenchCSV(&c, n))
	require.NoError(t, writeBenchData(&j, n, benchJSON))
	require.True(t, bytes.HasPrefix(j.Bytes(), []byte(
		`{"ts":"2024-03-01 08:59:59.985","key":"k141","value":328.91}`+"\n"+
			`{"ts":"2024-03-01 08:59:59.989","key":"k131","value":872.96}`+"\n")))

	records, err := csv.NewReader(bytes.NewReader(c.Bytes())).ReadAll()
	require.NoError(t, err)
	require.Len(t, records, n)
	sc := bufio.NewScanner(bytes.NewReader(j.Bytes()))
	i := 0
	for ; sc.Scan(); i++ {
		var row struct {
			TS    string      `json:"ts"`
			Key   string      `json:"key"`
			Value json.Number `json:"value"`
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&row), "line %d", i+1)
		require.Equal(t, records[i], []string{row.TS, row.Key, row.Value.String()}, "line %d", i+1)
	}
	require.Equal(t, n, i)

	var small bytes.Buffer
	require.NoError(t, writeBenchData(&small, 1000, benchJSON))
	sum := sha256.Sum256(small.Bytes())
	require.Equal(t, "a550fc918dded4fc8b48d7d2739e9d84521f5bd002bf36bdc8d38b594a2136ec", hex.EncodeToString(sum[:]))
}

// The JSON file is cached next to the CSV under its own name.
func TestBenchJSONDataCache(t *testing.T) {
	dir := t.TempDir()
	csvPath, _, err := ensureBenchData(dir, 100, benchCSV)
	require.NoError(t, err)
	path, generated, err := ensureBenchData(dir, 100, benchJSON)
	require.NoError(t, err)
	require.True(t, generated)
	require.NotEqual(t, csvPath, path)
	_, generated, err = ensureBenchData(dir, 100, benchJSON)
	require.NoError(t, err)
	require.False(t, generated)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.ElementsMatch(t, []string{"events-v1-seed20240301-100.csv", "events-v1-seed20240301-100.jsonl"}, names)
	var want bytes.Buffer
	require.NoError(t, writeBenchData(&want, 100, benchJSON))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, want.Bytes(), got)
}

// A JSON query run without its CSV query has no figure to compare with:
// its result is n/a. Run with it, it is compared, and the bench checks
// that both gave as many result rows.
func TestBenchJSONAgainstCSV(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "", "bench", "--rows", "20000", "--runs", "1", "--dir", dir, "--query", "session-json")
	require.Equal(t, 0, code, stderr)
	table := benchTableRows(t, stdout)
	require.Len(t, table, 1)
	require.Equal(t, []string{"≤1.5×csv", "n/a"}, table["session-json"][7:])
	require.NotContains(t, stderr, ".csv,", "the CSV file is only for the CSV queries")

	code, stdout, stderr = runCLI(t, "", "bench", "--rows", "20000", "--runs", "1", "--dir", dir, "--query", "tumble-json,tumble")
	require.Equal(t, 0, code, stderr)
	t.Log("\n" + stdout)
	table = benchTableRows(t, stdout)
	require.Len(t, table, 2)
	require.Equal(t, "≤1.6s@10M", table["tumble"][7])
	require.Equal(t, "≤1.5×csv", table["tumble-json"][7])
	require.Contains(t, []string{"met", "missed"}, table["tumble-json"][8])
	require.Contains(t, stderr, "0.7 MB, generated in ")
	require.Contains(t, stderr, "1.2 MB, reused")
}

// Result rows that differ between a JSON query and its CSV query fail the
// bench.
func TestBenchBaselineResultRows(t *testing.T) {
	q := func(name string) benchQuery {
		return benchQueries[slices.IndexFunc(benchQueries, func(q benchQuery) bool { return q.name == name })]
	}
	same := []benchResult{{q: q("hop"), resultRows: 7}, {q: q("hop-json"), resultRows: 7}, {q: q("session-json"), resultRows: 3}}
	require.NoError(t, checkBaselineResults(same))
	differ := []benchResult{{q: q("hop"), resultRows: 7}, {q: q("hop-json"), resultRows: 6}}
	require.EqualError(t, checkBaselineResults(differ), "the results differ: hop-json gave 6 result rows, hop 7")
}
