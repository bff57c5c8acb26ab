package wsql

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/planner/stmtset"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// Statement sets, as Flink's StatementSet: the INSERTs of
// EXECUTE STATEMENT SET BEGIN ... END, or those after the SQL client's
// BEGIN STATEMENT SET until END, run as one job in which INSERTs reading
// the same table share one read of it (planner/stmtset, exec.SetJob).
// The client form is the session's: BEGIN, each INSERT and END may come
// in separate calls (lines of the shell, Exec calls of a program); each
// INSERT is planned when it is added, so its errors point into its text.

// statementSet is the set a session is gathering: its INSERTs, planned.
type statementSet struct {
	at      sql.Pos // the BEGIN
	inserts []*sql.Insert
	plans   []*planner.Plan
}

// StatementSet reports whether the session is inside BEGIN STATEMENT SET
// (its INSERTs are kept until END) and how many INSERTs it holds.
func (e *Engine) StatementSet() (open bool, inserts int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.openSet == nil {
		return false, 0
	}
	return true, len(e.openSet.plans)
}

// inStatementSet takes st while the session gathers a statement set: an
// INSERT is planned and kept, END runs the set, anything else is refused.
// It returns false when no set is open.
func (r *runner) inStatementSet(ctx context.Context, st sql.Statement, opts planner.Options, unlock func()) (bool, error) {
	set := r.e.openSet
	if set == nil {
		return false, nil
	}
	switch s := st.(type) {
	case *sql.Insert:
		return true, r.addToSet(set, s, opts)
	case *sql.EndStatementSet:
		r.e.openSet = nil
		if len(set.plans) == 0 {
			return true, nil // Flink's client: nothing to submit
		}
		return true, r.runSet(ctx, s.At, set, unlock)
	case *sql.BeginStatementSet:
		return true, sql.Errorf(sql.ErrInvalid, s.At, "a statement set is already begun: END it first")
	}
	return true, sql.OnlyInsertsError(r.src, st)
}

// beginStatementSet opens the session's statement set.
func (r *runner) beginStatementSet(s *sql.BeginStatementSet) error {
	if err := r.refuseCheckpoints(s.At); err != nil {
		return err
	}
	r.e.openSet = &statementSet{at: s.At}
	return nil
}

// executeStatementSet runs EXECUTE STATEMENT SET BEGIN ... END.
func (r *runner) executeStatementSet(ctx context.Context, s *sql.StatementSet, opts planner.Options, unlock func()) error {
	if err := r.refuseCheckpoints(s.At); err != nil {
		return err
	}
	set := &statementSet{at: s.At}
	for _, ins := range s.Inserts {
		if err := r.addToSet(set, ins, opts); err != nil {
			return err
		}
	}
	return r.runSet(ctx, s.At, set, unlock)
}

// refuseCheckpoints refuses a statement set where checkpoints are taken:
// resuming one (every sink's state and the shared reads in one
// checkpoint) is not built yet.
func (r *runner) refuseCheckpoints(at sql.Pos) error {
	if dir, _ := r.e.settings.get(setting.CheckpointDir); dir != "" {
		return sql.Errorf(sql.ErrUnsupported, at, "checkpoints of a statement set are not supported yet ('%s' is set): run its INSERTs as separate statements to checkpoint them", setting.CheckpointDir)
	}
	return nil
}

// addToSet plans ins as it would run alone and adds it to set.
func (r *runner) addToSet(set *statementSet, ins *sql.Insert, opts planner.Options) error {
	opts.Run = true // what it reads must be there
	p, err := r.plan(ins, opts)
	if err != nil {
		return err
	}
	if err := r.refuseSecondInsert(ins, p); err != nil {
		return err
	}
	if path, ok := sinkPath(p); ok {
		// a file (not a directory) holds the rows of one INSERT
		for _, q := range set.plans {
			if other, ok := sinkPath(q); ok && samePath(path, other) {
				if info, err := os.Stat(path); err != nil || !info.IsDir() {
					return sql.Errorf(sql.ErrInvalid, ins.Table.At,
						"sink table %s writes the file '%s', which another INSERT of this statement set writes: make the sink's 'path' a directory, where each INSERT adds its own part files, or insert into another table",
						p.Sink.Table.Name, path)
				}
			}
		}
	}
	// the INSERTs of a set run at the same time: none may read what an
	// earlier one writes (checkOutputs checked the other way round)
	for k, q := range set.plans {
		for _, o := range r.planOutputs(set.inserts[k], q) {
			if err := checkOutput(o, planInputs(p)); err != nil {
				return err
			}
		}
	}
	r.inputs = append(r.inputs, planInputs(p)...)
	set.inserts = append(set.inserts, ins)
	set.plans = append(set.plans, p)
	return nil
}

// samePath reports whether a and b name one file (or, not there yet, are
// the same name).
func samePath(a, b string) bool {
	ia, ea := os.Stat(a)
	ib, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(ia, ib)
	}
	return a == b
}

// runSet runs the set's INSERTs as one job, with one summary.
func (r *runner) runSet(ctx context.Context, at sql.Pos, set *statementSet, unlock func()) error {
	plan := stmtset.New(set.plans)
	job, err := plan.Job()
	if err != nil {
		return err
	}
	r.queries++
	ws := make([]ResultWriter, 0, len(set.plans))
	closeAll := func() error {
		var errs []error
		for _, w := range ws {
			errs = append(errs, w.Close())
		}
		return errors.Join(errs...)
	}
	for _, p := range set.plans {
		w, err := r.openSink(ctx, p.Sink, nil, "")
		if err != nil {
			closeAll()
			return err
		}
		ws = append(ws, w)
	}
	n := r.e.parallelism
	if v, ok := r.e.settings.get(setting.Parallelism); ok {
		n, _ = setting.ParseParallelism(v) // checked by SET
	}
	var maxState int64
	if v, ok := r.e.settings.get(setting.StateMaxBytes); ok {
		maxState, _ = setting.ParseMemorySize(setting.StateMaxBytes, v) // checked by SET
	}
	spillAfter := r.spillAfter()
	for _, j := range job.Jobs {
		j.Walk(func(j *exec.Job) { j.Parallelism, j.MaxStateBytes, j.SpillAfter = n, maxState, spillAfter })
	}
	job.Progress, job.ProgressEvery = r.out.OnProgress, r.out.ProgressEvery
	unlock() // the plans are fixed: the set no longer needs the session
	if r.out.OnQueryStart != nil {
		r.out.OnQueryStart(QueryInfo{Number: r.queries, SQL: sqlfmt.Statement(&sql.StatementSet{Inserts: set.inserts}), Plan: plan.Explain()})
	}
	stats, runErr := job.Run(ctx, r.e.mem, ws)
	closeErr := closeAll()
	if r.out.OnSummary != nil {
		r.out.OnSummary(summaryOf(&stats, set.plans[0]))
	}
	if runErr != nil {
		return runErr
	}
	if closeErr != nil {
		return fmt.Errorf("statement set begun at %s: %w", at, closeErr)
	}
	return nil
}

// explainStatementSet is EXPLAIN of a statement set: each INSERT's plan
// and the scans they share.
func (r *runner) explainStatementSet(s *sql.StatementSet, opts planner.Options) (string, error) {
	var plans []*planner.Plan
	for _, ins := range s.Inserts {
		p, err := r.plan(ins, opts)
		if err != nil {
			return "", err
		}
		plans = append(plans, p)
	}
	return stmtset.New(plans).Explain(), nil
}

// EndOfScript ends a script run by Run: a statement set its BEGIN
// STATEMENT SET opened and no END closed is dropped, its INSERTs not run,
// and reported as an error at the BEGIN. A session that goes on (the
// shell, a program's Exec calls) keeps the set open instead.
func (e *Engine) EndOfScript() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	set := e.openSet
	if set == nil {
		return nil
	}
	e.openSet = nil
	return sql.Errorf(sql.ErrSyntax, set.at, "this statement set has no END: its %d INSERT statement(s) did not run; end it with END;", len(set.plans))
}
