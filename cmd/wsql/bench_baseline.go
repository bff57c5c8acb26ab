package main

import (
	"fmt"
	"slices"
	"strings"
)

// benchJSONFactor bounds a JSON query's wall time by that of its CSV
// baseline: issue 22 asks for the same queries over the same data as JSON
// lines within 1.5 times the CSV times.
const benchJSONFactor = 1.5

// benchSource names the source of the query called name, for a target
// relative to it.
func benchSource(name string) string {
	i := slices.IndexFunc(benchQueries, func(q benchQuery) bool { return q.name == name })
	if i < 0 {
		return name
	}
	return benchQueries[i].source
}

// benchVerdict is the result cell of r among the results of the same run:
// met or missed, or n/a for a target relative to a baseline that did not
// run.
func benchVerdict(r benchResult, results []benchResult) string {
	var met bool
	if r.q.baseline != "" {
		i := slices.IndexFunc(results, func(b benchResult) bool { return b.q.name == r.q.baseline })
		if i < 0 {
			return "n/a"
		}
		met = r.wall.Seconds() <= benchJSONFactor*results[i].wall.Seconds()
	} else {
		met = r.q.met(r.rows, r.wall, r.cpu)
	}
	if met {
		return "met"
	}
	return "missed"
}

// checkBaselineResults checks that each query with a baseline in the same
// run produced as many result rows as it: the same query over the same
// rows in another format must give the same windows.
func checkBaselineResults(results []benchResult) error {
	var bad []string
	for _, r := range results {
		if r.q.baseline == "" {
			continue
		}
		i := slices.IndexFunc(results, func(b benchResult) bool { return b.q.name == r.q.baseline })
		if i >= 0 && results[i].resultRows != r.resultRows {
			bad = append(bad, fmt.Sprintf("%s gave %d result rows, %s %d", r.q.name, r.resultRows, r.q.baseline, results[i].resultRows))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("the results differ: %s", strings.Join(bad, "; "))
	}
	return nil
}
