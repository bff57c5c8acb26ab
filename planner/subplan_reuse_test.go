package planner

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/windowop"
)

// shareAndList marks the windows queries share and returns, per job, the
// job whose window it reads (nil when none is shared).
func shareAndList(queries []*exec.Job) map[*exec.Job]*exec.Job {
	for _, q := range queries {
		for c := q; c != nil; c = c.Input {
			c.SharesWindowOf = nil
		}
	}
	shareWindows(queries)
	var m map[*exec.Job]*exec.Job
	for _, q := range queries {
		for c := q; c != nil; c = c.Input {
			if c.SharesWindowOf != nil {
				if m == nil {
					m = map[*exec.Job]*exec.Job{}
				}
				m[c] = c.SharesWindowOf
			}
		}
	}
	return m
}

var reuseSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "k", Type: arrow.BinaryTypes.String},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// Two queries share a job's window only when they compute the same rows
// up to it: what reads the window's rows may differ, nothing before it.
func TestFindSharedSubplans(t *testing.T) {
	src := func() exec.Source {
		return &exec.MakerSource{Maker: &exec.Values{}, SourceSpec: exec.SourceSpec{Table: "events", Schema: reuseSchema, BatchSize: 4}}
	}
	count := func(src exec.Source) *exec.Job {
		cfg := windowop.Config{
			Input: reuseSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, GapIndex: -1,
			Assigner: &windowop.Tumble{Size: 2000}, Aggs: []windowop.AggSpec{{Kind: windowop.CountStar, Name: "n"}},
		}
		out, err := cfg.OutputSchema()
		require.NoError(t, err)
		return &exec.Job{Source: src, Window: &cfg, Project: exec.ProjectSpec{Columns: []int{0, 1, 2}, Schema: out}}
	}
	having := &expr.Compare{Op: ">", L: &expr.ColumnExpr{Index: 2, Name: "n", Type: arrow.PrimitiveTypes.Int64}, R: &expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: 1}}
	over := func(in *exec.Job) *exec.Job { return &exec.Job{Input: in, RowtimeIndex: -1, Project: in.Project} }

	a, b := count(src()), count(src())
	b.Having = having
	r := shareAndList([]*exec.Job{a, b})
	require.Equal(t, map[*exec.Job]*exec.Job{b: a}, r, "the same count, read differently")

	// a job over the count shares the count, not itself
	outer := over(count(src()))
	r = shareAndList([]*exec.Job{a, outer})
	require.Equal(t, map[*exec.Job]*exec.Job{outer.Input: a}, r)

	// one job in two places runs twice, as before
	require.Nil(t, shareAndList([]*exec.Job{a, a}))

	for name, differ := range map[string]func(j *exec.Job){
		"delay":       func(j *exec.Job) { j.DelayMillis = 1 },
		"filter":      func(j *exec.Job) { j.Where = having },
		"keys":        func(j *exec.Job) { c := *j.Window; c.KeyIndexes = []int{2}; j.Window = &c },
		"parallelism": func(j *exec.Job) { j.Parallelism = 2 },
		"table": func(j *exec.Job) {
			s := *j.Source.(*exec.MakerSource)
			s.Table = "other"
			j.Source = &s
		},
		"source type": func(j *exec.Job) { j.Source = struct{ exec.Source }{j.Source} },
		"no window":   func(j *exec.Job) { j.Window = nil },
	} {
		c := count(src())
		differ(c)
		require.Nil(t, shareAndList([]*exec.Job{a, c}), name)
	}
}
