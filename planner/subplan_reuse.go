package planner

import (
	"reflect"

	"github.com/wsql/wsql/exec"
)

// Sub-plan reuse, as Flink's 'table.optimizer.reuse-sub-plan-enabled'
// (on by default there): when two queries of a timed union or join run
// the same windowed sub-plan (the same source, computed columns,
// watermark, filter and window aggregation; Nexmark q5 counts the bids
// per auction and window on both sides of its join), the later query's
// job reads the earlier one's window output (exec.Job.SharesWindowOf)
// and the sub-plan runs once. An untimed union passes rows on as its
// queries are read, one after the other: it shares nothing.

// shareWindows sets SharesWindowOf on the outermost job of each query's
// chain (the job, its Input, theirs) that an earlier query runs already,
// up to the window's output.
func shareWindows(queries []*exec.Job) {
	// the jobs are told apart by their address: one job in two places
	// would be both the one that runs and the one that reads
	seen := map[*exec.Job]bool{}
	for _, q := range queries {
		for c := q; c != nil; c = c.Input {
			if seen[c] {
				return
			}
			seen[c] = true
		}
	}
	// built[i] lists the jobs query i runs itself, outermost first
	built := make([][]*exec.Job, len(queries))
	for k, q := range queries {
		for c := q; c != nil; c = c.Input {
			if p := sharedWith(built[:k], c); p != nil {
				c.SharesWindowOf = p
				break // c and the jobs it reads run in p's query
			}
			built[k] = append(built[k], c)
		}
	}
}

// sharedWith returns a job of built that computes what c computes up to
// its window's output, or nil.
func sharedWith(built [][]*exec.Job, c *exec.Job) *exec.Job {
	if !reusable(c) {
		return nil
	}
	for _, jobs := range built {
		for _, p := range jobs {
			if reusable(p) && sameUpToWindowOutput(p, c) {
				return p
			}
		}
	}
	return nil
}

// reusable reports whether j's window output can feed another query: a
// time window aggregation (the costly part worth sharing) whose rows go
// on only through PostWindow, Having and Project, over a chain of jobs
// down to a source that reads the same rows every time it is read (not
// a program's pushed rows, which one query at a time may read).
func reusable(j *exec.Job) bool {
	if j.Window == nil || j.Rank != nil || j.SetOp != nil || j.Order != nil || j.WindowTVF != nil ||
		j.Expand != nil || j.Lookup != nil || j.Join != nil || j.Over != nil || j.Group != nil || j.Count != nil {
		return false
	}
	for ; j != nil; j = j.Input {
		if j.Union != nil {
			return false
		}
		if j.Input == nil && (j.Source == nil || !rereadable(j.Source)) {
			return false
		}
	}
	return true
}

// rereadable reports whether every read of s gives the same rows: files
// and generators (the sources that resume from a position) and VALUES.
func rereadable(s exec.Source) bool {
	if s.Checkpointable() == nil {
		return true
	}
	if m, ok := s.(*exec.MakerSource); ok {
		_, values := m.Maker.(*exec.Values)
		return values
	}
	return false
}

// sameUpToWindowOutput reports whether a and b compute the same rows up
// to their windows' output: equal in every setting but what reads the
// window's rows (PostWindow, Having, Project), down the chain of jobs
// they read to their sources. The comparison is structural and deep
// (reflect.DeepEqual): jobs equal in every setting, down to their
// sources' options and compiled expressions, compute the same rows; a
// setting it cannot compare (a function) counts as different, which
// only misses a reuse.
func sameUpToWindowOutput(a, b *exec.Job) bool {
	return sameJobs(a, b, true)
}

// sameJobs compares a and b and the jobs they read; upToWindow leaves
// out what reads the window's rows, which only the outermost may differ
// in.
func sameJobs(a, b *exec.Job, upToWindow bool) bool {
	x, y := *a, *b
	for _, j := range []*exec.Job{&x, &y} {
		if upToWindow {
			j.PostWindow, j.Having, j.Project = nil, nil, exec.ProjectSpec{}
		}
		// what only reports on the run, and what is compared below
		j.LateDataPath, j.Progress, j.ProgressEvery, j.Checkpoint = "", nil, 0, nil
		j.Source, j.Input, j.SharesWindowOf = nil, nil, nil
	}
	if !reflect.DeepEqual(x, y) || (a.Source == nil) != (b.Source == nil) || (a.Input == nil) != (b.Input == nil) {
		return false
	}
	if a.Source != nil && !sameSource(a.Source, b.Source) {
		return false
	}
	return a.Input == nil || sameJobs(a.Input, b.Input, false)
}

// sameSource reports whether a and b are the same read: sources of one
// type, equal in every field but SourceSpec.BadRowText, a function that
// only writes a bad row's text into the bad rows' report (the format's,
// which the comparison covers) and, with the read shared, runs for one
// of the two only.
func sameSource(a, b exec.Source) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() || va.Kind() != reflect.Pointer || va.IsNil() || vb.IsNil() || va.Elem().Kind() != reflect.Struct {
		return false
	}
	x, y := reflect.New(va.Elem().Type()).Elem(), reflect.New(vb.Elem().Type()).Elem()
	x.Set(va.Elem())
	y.Set(vb.Elem())
	specType := reflect.TypeFor[exec.SourceSpec]()
	for _, v := range []reflect.Value{x, y} {
		if f, ok := v.Type().FieldByName("SourceSpec"); ok && f.Type == specType && len(f.Index) == 1 {
			v.Field(f.Index[0]).FieldByName("BadRowText").SetZero()
		}
	}
	return reflect.DeepEqual(x.Interface(), y.Interface())
}

// sharedWindow says that query query's job at depth (0 its own, 1 the job
// it reads, and so on) reads the window output of query from's job at
// fromDepth: EXPLAIN shows it as Flink does.
type sharedWindow struct {
	query, depth    int
	from, fromDepth int
}

// sharedWindows lists the windows the queries of a union share.
func sharedWindows(queries []*exec.Job) []sharedWindow {
	at := map[*exec.Job][2]int{}
	for i, q := range queries {
		for d := 0; q != nil; q, d = q.Input, d+1 {
			at[q] = [2]int{i, d}
		}
	}
	var out []sharedWindow
	for i, q := range queries {
		for d := 0; q != nil; q, d = q.Input, d+1 {
			if p, ok := at[q.SharesWindowOf]; ok {
				out = append(out, sharedWindow{query: i, depth: d, from: p[0], fromDepth: p[1]})
			}
		}
	}
	return out
}
