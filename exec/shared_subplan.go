package exec

import (
	"fmt"

	"github.com/wsql/wsql/pipeline"
)

// Sub-plan reuse (planner/subplan_reuse.go): a job of a timed union's
// query whose SharesWindowOf is a job of an earlier query runs no
// sub-plan of its own; a tee at the other's window output feeds both:
//
//	source ─▶ assigner ─▶ window ─▶ tee ─▶ project ─────────────▶ union input 0
//	                                 └───▶ project ─▶ window ───▶ union input 1
//
// The later query's pipeline has no reader: its rows, watermarks and end
// come through the tee. Which query is stepped when never changed a timed
// union's output (the merge orders rows by watermark), nor does sharing.

// subplanReuse is what one union's queries share: the tee of each
// producing job, and the producing job of each consuming one.
type subplanReuse struct {
	tees     map[*Job]*subplanTee
	consumes map[*Job]*Job // consumer ─▶ producer
}

// tee is the tee a producing job's window feeds, nil for any other job.
func (r *subplanReuse) tee(j *Job) *subplanTee {
	if r == nil {
		return nil
	}
	return r.tees[j]
}

// producer is the job whose window output j reads, or nil.
func (r *subplanReuse) producer(j *Job) *Job {
	if r == nil {
		return nil
	}
	return r.consumes[j]
}

// sharedSubplans collects the SharesWindowOf of the queries' jobs. A job
// shared must be a window aggregation an earlier query runs itself, read
// through PostWindow, Having and Project only.
func sharedSubplans(queries []*Job) (*subplanReuse, error) {
	var r *subplanReuse
	runs := map[*Job]bool{} // jobs of earlier queries that run their window
	for _, q := range queries {
		var own []*Job
		for c := q; c != nil; c = c.Input {
			p := c.SharesWindowOf
			if p == nil {
				own = append(own, c)
				continue
			}
			if !runs[p] || p.Window == nil || p.Rank != nil || p.SetOp != nil || p.Order != nil || p.WindowTVF != nil || p.Expand != nil {
				return nil, fmt.Errorf("%w: a job shares the window of no earlier query of its union", ErrSource)
			}
			if r == nil {
				r = &subplanReuse{tees: map[*Job]*subplanTee{}, consumes: map[*Job]*Job{}}
			}
			if r.tees[p] == nil {
				r.tees[p] = &subplanTee{}
			}
			r.consumes[c] = p
			break
		}
		for _, c := range own {
			runs[c] = true
		}
	}
	return r, nil
}

// subplanTee is the stage after a shared window: it hands each batch,
// watermark and the end to every query reading the window, the
// producing query's first. It borrows each batch as its consumers do
// (pipeline.Operator's contract), so it holds no memory of its own.
type subplanTee struct {
	outs []pipeline.Operator
}

func (t *subplanTee) ProcessBatch(b pipeline.Batch) error {
	for _, o := range t.outs {
		if err := o.ProcessBatch(b); err != nil {
			return err
		}
	}
	return nil
}

func (t *subplanTee) ProcessWatermark(wm int64) error {
	for _, o := range t.outs {
		if err := o.ProcessWatermark(wm); err != nil {
			return err
		}
	}
	return nil
}

func (t *subplanTee) ProcessEnd() error {
	for _, o := range t.outs {
		if err := o.ProcessEnd(); err != nil {
			return err
		}
	}
	return nil
}

// Close closes nothing downstream (the driver closes each stage).
func (t *subplanTee) Close() {}
