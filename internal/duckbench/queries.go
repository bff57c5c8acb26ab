package main

import (
	"fmt"
	"strings"
)

// A query is one of the CSV queries of `wsql bench` with its DuckDB
// equivalent: the same windows of the same file, so both engines do the
// same work and give the same number of windows.
type query struct {
	name string
	// duckdb is the query in DuckDB SQL over the file src (a read_csv
	// call). It returns the number of windows, the rows counted in them
	// (each row counts once per window it is in) and a checksum of the
	// other columns, which makes DuckDB compute every column wsql computes
	// instead of pruning the unused ones.
	duckdb func(src string) string
	// perRow is how many windows each row is in: the rows counted must be
	// perRow × the file's rows, or DuckDB did not read it all.
	perRow int64
	// target is the largest ratio of wsql's wall time to DuckDB's (issue 22).
	target float64
}

// queries are wsql bench's CSV queries, in its order.
var queries = []query{
	{
		// TUMBLE(ts, INTERVAL '1' MINUTE): COUNT(*), SUM(value), MAX(value)
		name: "tumble", perRow: 1, target: 0.5,
		duckdb: func(src string) string {
			return `SELECT count(*), sum(n), sum(total) + sum(hi) + epoch(max(w)) FROM (
  SELECT key, time_bucket(INTERVAL 1 MINUTE, ts) AS w, count(*) AS n, sum(value) AS total, max(value) AS hi
  FROM ` + src + ` GROUP BY key, w)`
		},
	},
	{
		// HOP(ts, INTERVAL '10' SECOND, INTERVAL '1' MINUTE): COUNT(*),
		// AVG(value); a row is in the six windows starting at its 10 s
		// bucket and the five before
		name: "hop", perRow: 6, target: 0.3,
		duckdb: func(src string) string {
			return `SELECT count(*), sum(n), sum(mean) + epoch(max(ws)) FROM (
  SELECT key, ws, count(*) AS n, avg(value) AS mean FROM (
    SELECT key, value, unnest(range(time_bucket(INTERVAL 10 SECOND, ts) - INTERVAL 50 SECOND,
                                     time_bucket(INTERVAL 10 SECOND, ts) + INTERVAL 10 SECOND, INTERVAL 10 SECOND)) AS ws
    FROM ` + src + `)
  GROUP BY key, ws)`
		},
	},
	{
		// SESSION(ts, INTERVAL '10' SECOND): COUNT(*). As in Flink, a row
		// opens [ts, ts + 10 s) and windows that touch merge, so a session
		// ends where the next row of its key is more than 10 s later
		name: "session", perRow: 1, target: 0.15,
		duckdb: func(src string) string {
			return `SELECT count(*), sum(n), epoch(max(wstart)) + epoch(max(wend)) FROM (
  SELECT key, sid, min(ts) AS wstart, max(ts) + INTERVAL 10 SECOND AS wend, count(*) AS n FROM (
    SELECT key, ts, sum(CASE WHEN prev IS NULL OR ts - prev > INTERVAL 10 SECOND THEN 1 ELSE 0 END)
             OVER (PARTITION BY key ORDER BY ts ROWS UNBOUNDED PRECEDING) AS sid
    FROM (SELECT key, ts, lag(ts) OVER (PARTITION BY key ORDER BY ts) AS prev FROM ` + src + `))
  GROUP BY key, sid)`
		},
	},
}

// duckdbSource reads the bench's CSV file as wsql's events table declares it.
func duckdbSource(csv string) string {
	return fmt.Sprintf("read_csv('%s', header = false, columns = {'ts': 'TIMESTAMP', 'key': 'VARCHAR', 'value': 'DOUBLE'})",
		strings.ReplaceAll(csv, "'", "''"))
}

// lookupQueries returns the queries named in a comma-separated list.
func lookupQueries(list string) ([]query, error) {
	var out []query
	for _, name := range strings.Split(list, ",") {
		found := false
		for _, q := range queries {
			if q.name == name {
				out = append(out, q)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown query %q (queries: tumble, hop, session)", name)
		}
	}
	return out, nil
}
