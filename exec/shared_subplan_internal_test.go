package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/windowop"
)

// teeIntoMerge is a shared window's tee feeding both inputs of a union,
// through a projection on each side, then the union's end.
type teeIntoMerge struct {
	*subplanTee
	m *unionMerge
}

func (t teeIntoMerge) ProcessEnd() error {
	if err := t.subplanTee.ProcessEnd(); err != nil {
		return err
	}
	return t.m.ProcessEnd()
}

func (t teeIntoMerge) Close() { t.m.Close() }

// The tee hands each batch, watermark and the end to every consumer,
// holding no memory of its own (the harness checks the allocator).
func TestSubplanTeeConformance(t *testing.T) {
	pipelinetest.TestOperator(t, pipelinetest.Harness{
		New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			m := newUnionMerge(2, true, mem, next)
			tee := &subplanTee{}
			for i := range 2 {
				cols := []int{0, 1, 2, 3}
				p, err := NewProject(ProjectSpec{Columns: cols, Schema: conformanceSchema}, conformanceSchema, mem, m.input(i))
				if err != nil {
					return nil, err
				}
				tee.outs = append(tee.outs, p)
			}
			return teeIntoMerge{tee, m}, nil
		},
		Input: conformanceInput(true),
	})
}

// A job may share only the window of a job an earlier query runs.
func TestSharedSubplansChecksTheProducer(t *testing.T) {
	count := func() *Job {
		cfg := windowop.Config{
			Input: conformanceSchema, RowtimeIndex: 0, KeyIndexes: []int{1}, GapIndex: -1,
			Assigner: &windowop.Tumble{Size: 2000}, Aggs: []windowop.AggSpec{{Kind: windowop.CountStar, Name: "n"}},
		}
		return &Job{Source: &MakerSource{Maker: &Values{}, SourceSpec: SourceSpec{Schema: conformanceSchema}}, Window: &cfg}
	}
	a, b := count(), count()
	b.SharesWindowOf = a
	r, err := sharedSubplans([]*Job{a, b})
	require.NoError(t, err)
	require.Same(t, a, r.producer(b))
	require.NotNil(t, r.tee(a))

	_, err = sharedSubplans([]*Job{b, a}) // a later query's
	require.ErrorIs(t, err, ErrSource)
	c := count()
	c.SharesWindowOf = count() // no query's
	_, err = sharedSubplans([]*Job{a, c})
	require.ErrorIs(t, err, ErrSource)
}
