package stmtset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
)

// Set is the plan of a statement set: its INSERTs' plans and the scan each
// reads.
type Set struct {
	Plans []*planner.Plan
	// Scans[i] numbers the scan Plans[i] reads, from 0 in the order the
	// INSERTs first read them.
	Scans []int
	// readers[n] lists the INSERTs (1-based) that read scan n.
	readers [][]int
}

// New groups the plans of a set's INSERTs by the scan they read: the same
// table, read the same way (connector and format options, splits,
// columns, batch size), is one scan read once.
func New(plans []*planner.Plan) *Set {
	s := &Set{Plans: plans}
	scans := map[string]int{}
	for i, p := range plans {
		key := scanKey(innermost(p))
		n, ok := scans[key]
		if !ok {
			n = len(s.readers)
			scans[key] = n
			s.readers = append(s.readers, nil)
		}
		s.Scans = append(s.Scans, n)
		s.readers[n] = append(s.readers[n], i+1)
	}
	return s
}

// innermost is the plan whose source p's rows come from (p itself, or the
// plan of the subquery or view it reads, down to the table).
func innermost(p *planner.Plan) *planner.Plan {
	for p.Input != nil {
		p = p.Input
	}
	return p
}

// scanKey is what makes two reads the same read: the same table of the
// catalog (a VALUES list or a table with hints is a table of its own
// statement, never shared) read the same way.
func scanKey(p *planner.Plan) string {
	if p.Union != nil {
		return fmt.Sprintf("union %p", p) // its queries' reads are its own
	}
	src := p.Source
	spec := src.Spec()
	var b strings.Builder
	fmt.Fprintf(&b, "%p\x00%s\x00%T\x00%s\x00%s\x00%d\x00%s\x00%v\x00%+v\x00", p.Table, spec.Table, src, src.Explain(), spec.Schema, spec.BatchSize, spec.BadRowsPath, spec.IdleTimeout, spec.MaxFuture)
	src.Identity(&b)
	return b.String()
}

// Job lowers the set into one job: each INSERT's job, and the scans they
// share.
func (s *Set) Job() (*exec.SetJob, error) {
	job := &exec.SetJob{Scans: s.Scans}
	for _, p := range s.Plans {
		if o := p.Order; o != nil && o.Limit >= 0 {
			// a LIMIT ends its run, which the set's INSERTs share
			return nil, sql.Errorf(sql.ErrUnsupported, o.LimitAt, "LIMIT in a statement set is not supported yet")
		}
		j, err := p.Job()
		if err != nil {
			return nil, err
		}
		job.Jobs = append(job.Jobs, j)
	}
	return job, nil
}

// Explain prints each INSERT's plan, as EXPLAIN INSERT does, its scan
// marked with the number of the shared read and the INSERTs that share it.
func (s *Set) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "StatementSet(inserts=[%d], scans=[%d]: each scan is read once, its rows go to every INSERT that reads it)\n", len(s.Plans), len(s.readers))
	for i, p := range s.Plans {
		b.WriteString("\n")
		lines := strings.Split(strings.TrimSuffix(p.Explain(), "\n"), "\n")
		// the innermost scan is the last line that scans a table; a
		// union's scans are its own, shared with no other INSERT
		for k := len(lines) - 1; k >= 0 && innermost(p).Union == nil; k-- {
			if l := lines[k]; strings.Contains(l, "TableSourceScan(") && strings.HasSuffix(l, ")") {
				n := s.Scans[i]
				lines[k] = l[:len(l)-1] + fmt.Sprintf(", scan=[%d], shared by inserts=[%s])", n+1, joinInts(s.readers[n]))
				break
			}
		}
		b.WriteString(strings.Join(lines, "\n") + "\n")
	}
	return b.String()
}

func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}
