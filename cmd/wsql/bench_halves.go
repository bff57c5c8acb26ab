package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// benchHalves is a query's work cut in two: two scripts, each over half
// the rows, for two processes that share nothing. A file source's halves
// are the workload's first rows and the rest (the same bytes as in the
// whole file); a generator's are two generators of half the rows each.
type benchHalves struct {
	scripts [2]string
	rows    [2]int64 // the rows each half's source reads
}

// writeBenchHalves generates (or reuses) in dir the halves of query q's
// rows rows and writes their scripts.
func writeBenchHalves(dir string, q benchQuery, rows int64) (benchHalves, error) {
	cut := rows / 2
	parts := [2][2]int64{{0, cut}, {cut, rows}}
	var h benchHalves
	for i, p := range parts {
		data := ""
		if f, ok := benchFormats[q.source]; ok {
			path, _, err := ensureBenchRows(dir, p[0], p[1], f)
			if err != nil {
				return benchHalves{}, fmt.Errorf("generating half %d of the data: %w", i+1, err)
			}
			data = path
		}
		n := p[1] - p[0]
		h.scripts[i] = filepath.Join(dir, fmt.Sprintf("%s-%d-half%d.sql", q.name, rows, i+1))
		if err := os.WriteFile(h.scripts[i], []byte(q.sql(data, n)), 0o644); err != nil {
			return benchHalves{}, err
		}
		h.rows[i] = q.rowsRead(n)
	}
	return h, nil
}

// run runs the two halves at once with GOMAXPROCS 1, the first on
// cpus[0] and the second on cpus[1], and returns the wall time until both
// are done.
func (h benchHalves) run(self string, cpus []int) (time.Duration, error) {
	type done struct {
		m   benchMeasure
		err error
	}
	results := make(chan done, 2)
	for i := range h.scripts {
		go func() {
			m, err := benchRun(self, h.scripts[i], h.rows[i], benchChild{maxProcs: 1, cpus: cpus[i : i+1]})
			if err != nil {
				err = fmt.Errorf("half %d (%s): %w", i+1, h.scripts[i], err)
			}
			results <- done{m, err}
		}()
	}
	var wall time.Duration
	var first error
	for range h.scripts {
		d := <-results
		wall = max(wall, d.m.wall)
		if first == nil {
			first = d.err
		}
	}
	return wall, first
}
