package main

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"
)

// benchScalingQueries are the queries `wsql bench --scaling` runs unless
// --query names others: the CSV queries, whose decoding runs on every core.
var benchScalingQueries = []string{"tumble", "hop", "session"}

// benchScalingTarget is issue 22's target: wall time falls by this factor
// from one core to two.
const benchScalingTarget = 1.8

// scalingResult is one query's median wall times, each configuration on
// the same two CPUs.
type scalingResult struct {
	q        benchQuery
	cpus     []int            // the two CPUs
	oneCore  time.Duration    // GOMAXPROCS 1, on either CPU as the system places it
	twoCores time.Duration    // GOMAXPROCS 2, on both
	pinned   [2]time.Duration // GOMAXPROCS 1 on cpus[0] alone, then on cpus[1] alone
	halves   time.Duration    // two GOMAXPROCS 1 processes at once, one on each CPU, each on half the rows
}

// ratio is how much the wall time falls from one core to two.
func (r scalingResult) ratio() float64 { return r.oneCore.Seconds() / r.twoCores.Seconds() }

// bound is the ratio of a program that splits all its work between the
// two CPUs at the speed each ran it alone: the most the machine allows.
// Two equal CPUs allow 2; a CPU that runs the query slower than the other
// (a virtual CPU sharing its core with another machine's work) less.
func (r scalingResult) bound() float64 {
	return r.oneCore.Seconds() * (1/r.pinned[0].Seconds() + 1/r.pinned[1].Seconds())
}

// halvesRatio is how much the wall time falls from one core to two
// processes that share nothing, each on half the rows and one CPU: what
// the machine gives a query whose work needs no coordination at all, with
// a process's start on each CPU and both CPUs busy at once.
func (r scalingResult) halvesRatio() float64 { return r.oneCore.Seconds() / r.halves.Seconds() }

// benchScaling is `wsql bench --scaling`: each query runs with GOMAXPROCS
// 1 and 2 on the first two CPUs this process may use, and with GOMAXPROCS
// 1 on each of them alone, which measures what each CPU gives, and as two
// GOMAXPROCS 1 processes at once, one on each CPU, each on half the rows
// (benchHalves). The configurations take turns, run by run, so a machine
// that slows down mid-series slows them alike.
func benchScaling(queries []benchQuery, dir string, rows int64, runs int, stdout, stderr io.Writer) ([]scalingResult, error) {
	cpus, err := benchCPUs()
	if err != nil {
		return nil, err
	}
	if len(cpus) < 2 {
		return nil, fmt.Errorf("--scaling needs two CPUs; this process may run on %d", len(cpus))
	}
	cpus = cpus[:2]
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the wsql binary to run the queries: %w", err)
	}
	if err := absDirs(&dir); err != nil {
		return nil, err
	}
	printMachine(stdout)
	data, err := benchData(queries, dir, rows, stderr)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "rows:    %d, %d run(s) of each configuration, median wall time, on CPUs %d and %d\n\n", rows, runs, cpus[0], cpus[1])
	configs := []struct {
		name string
		how  benchChild
	}{
		{"1 core", benchChild{maxProcs: 1, cpus: cpus}},
		{"2 cores", benchChild{maxProcs: 2, cpus: cpus}},
		{fmt.Sprintf("1 core on cpu%d", cpus[0]), benchChild{maxProcs: 1, cpus: cpus[:1]}},
		{fmt.Sprintf("1 core on cpu%d", cpus[1]), benchChild{maxProcs: 1, cpus: cpus[1:]}},
	}
	var results []scalingResult
	for _, q := range queries {
		script, err := writeBenchScript(dir, q, data, rows)
		if err != nil {
			return nil, err
		}
		halves, err := writeBenchHalves(dir, q, rows)
		if err != nil {
			return nil, err
		}
		halvesAt := len(configs) // the halves' walls follow the configurations'
		walls := make([][]time.Duration, halvesAt+1)
		for i := range runs {
			for c, config := range configs {
				m, err := benchRun(self, script, q.rowsRead(rows), config.how)
				if err != nil {
					return nil, fmt.Errorf("%s (%s), %s: %w", q.name, script, config.name, err)
				}
				fmt.Fprintf(stderr, "%s, %s, run %d/%d: %s wall, %s CPU\n", q.name, config.name, i+1, runs,
					m.wall.Round(time.Millisecond), m.cpu.Round(time.Millisecond))
				walls[c] = append(walls[c], m.wall)
			}
			wall, err := halves.run(self, cpus)
			if err != nil {
				return nil, fmt.Errorf("%s, halves: %w", q.name, err)
			}
			fmt.Fprintf(stderr, "%s, 2 halves at once, run %d/%d: %s wall\n", q.name, i+1, runs, wall.Round(time.Millisecond))
			walls[halvesAt] = append(walls[halvesAt], wall)
		}
		results = append(results, scalingResult{q: q, cpus: cpus,
			oneCore: median(walls[0]), twoCores: median(walls[1]),
			pinned: [2]time.Duration{median(walls[2]), median(walls[3])},
			halves: median(walls[halvesAt])})
	}
	return results, nil
}

// printScalingTable writes one line per query, every cell one word.
func printScalingTable(w io.Writer, results []scalingResult) {
	if len(results) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	c := results[0].cpus
	fmt.Fprintf(tw, "query\t1-core\t2-core\t1÷2\ton-cpu%d\ton-cpu%d\tbound\thalves\t1÷halves\ttarget\tresult\n", c[0], c[1])
	for _, r := range results {
		result := "missed"
		if r.ratio() >= benchScalingTarget {
			result = "met"
		}
		fmt.Fprintf(tw, "%s\t%.3fs\t%.3fs\t%.2f\t%.3fs\t%.3fs\t%.2f\t%.3fs\t%.2f\t≥%g\t%s\n", r.q.name,
			r.oneCore.Seconds(), r.twoCores.Seconds(), r.ratio(),
			r.pinned[0].Seconds(), r.pinned[1].Seconds(), r.bound(),
			r.halves.Seconds(), r.halvesRatio(), benchScalingTarget, result)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(w, err)
	}
}
