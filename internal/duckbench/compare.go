package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"time"
)

// config is what the command line asks for.
type config struct {
	wsql, self, dir string
	rows            int64
	runs            int
	queries         []query
}

// A side is one engine's measurements of one query over its runs.
type side struct {
	wall, cpu time.Duration // medians
	maxRSS    int64         // the largest of the runs, bytes
}

// A result is one query measured on both engines.
type result struct {
	q             query
	windows       int64
	wsql, duckdb  side
	duckdbVersion string
}

// compare prepares the data with wsql bench, runs each query on both
// engines, alternating, then measures the limit, and prints both tables.
func compare(c config, stdout, stderr io.Writer) error {
	csv, scripts, err := prepare(c.wsql, c.dir, c.rows, c.queries)
	if err != nil {
		return err
	}
	fi, err := os.Stat(csv)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "data: %s, %d rows, %.1f MB\n", csv, c.rows, float64(fi.Size())/1e6)
	var results []result
	for _, q := range c.queries {
		r, err := compareQuery(c, q, csv, scripts[q.name], stderr)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	limits, err := measureLimit(csv, c.rows, c.runs, stderr)
	if err != nil {
		return err
	}
	printHeader(stdout, c, fi.Size(), results[0].duckdbVersion)
	printComparison(stdout, results)
	printLimit(stdout, fi.Size(), c.runs, limits, results)
	return nil
}

// compareQuery runs one query runs times on each engine, wsql then DuckDB
// in turn, so that a change in the machine's load falls on both alike.
// Every run of both must make the same number of windows.
func compareQuery(c config, q query, csv, script string, stderr io.Writer) (result, error) {
	r := result{q: q, windows: -1}
	var ws, ds []measure
	for i := range c.runs {
		w, err := runWSQL(c.wsql, script, c.rows)
		if err != nil {
			return r, fmt.Errorf("%s in wsql (%s): %w", q.name, script, err)
		}
		d, version, err := runDuckDB(c.self, q, csv, c.rows)
		if err != nil {
			return r, fmt.Errorf("%s in DuckDB: %w", q.name, err)
		}
		if err := agree(q.name, r.windows, w.windows, d.windows); err != nil {
			return r, err
		}
		r.windows, r.duckdbVersion = w.windows, version
		fmt.Fprintf(stderr, "%s run %d/%d: %d windows; wsql %s wall, %s CPU, %.0f MB; DuckDB %s wall, %s CPU, %.0f MB\n",
			q.name, i+1, c.runs, r.windows,
			w.wall.Round(time.Millisecond), w.cpu.Round(time.Millisecond), float64(w.maxRSS)/1e6,
			d.wall.Round(time.Millisecond), d.cpu.Round(time.Millisecond), float64(d.maxRSS)/1e6)
		ws, ds = append(ws, w), append(ds, d)
	}
	r.wsql, r.duckdb = summarize(ws), summarize(ds)
	return r, nil
}

// agree checks that wsql and DuckDB made the same number of windows, and
// the same as the earlier runs (before < 0: none yet).
func agree(name string, before, wsql, duckdb int64) error {
	if wsql != duckdb {
		return fmt.Errorf("%s: the engines disagree: wsql made %d windows, DuckDB %d", name, wsql, duckdb)
	}
	if before >= 0 && wsql != before {
		return fmt.Errorf("%s: %d windows in this run, %d in the one before", name, wsql, before)
	}
	return nil
}

// summarize is the median wall and CPU time and the largest peak RSS.
func summarize(ms []measure) side {
	var walls, cpus []time.Duration
	var s side
	for _, m := range ms {
		walls, cpus = append(walls, m.wall), append(cpus, m.cpu)
		s.maxRSS = max(s.maxRSS, m.maxRSS)
	}
	s.wall, s.cpu = median(walls), median(cpus)
	return s
}

// median returns the middle value, the lower of the two middle ones for
// an even count.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
