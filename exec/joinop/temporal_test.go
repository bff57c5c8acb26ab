package joinop

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/windowop"
)

// tjCheck runs events in batches of 1, 3 and 4096 rows, and through a
// snapshot before each event, and requires each run to send want.
func tjCheck(t *testing.T, s tjShape, events []tmpEvent, want ...string) {
	t.Helper()
	cfg := s.config()
	for _, size := range []int{1, 3, 4096} {
		require.Equal(t, want, tjRun(t, cfg, events, size, -1), "batches of %d", size)
	}
	for at := 0; at <= len(events); at++ {
		require.Equal(t, want, tjRun(t, cfg, events, 3, at), "snapshot before event %d", at)
	}
}

func TestTemporalJoinLatestVersionAtProbeTime(t *testing.T) {
	tjCheck(t, tjShape{rightUpdates: true}, []tmpEvent{
		tjR("+I", 1, 1, 10), tjR("+U", 5, 1, 20),
		tjL(0, 1, 99), // before the first version: nothing
		tjL(3, 1, 100), tjL(5, 1, 101), tjL(7, 1, 102),
		tjWM(10),
	},
		"3 1 100 1 1 10",
		"5 1 101 5 1 20", // a version is valid from its own time on
		"7 1 102 5 1 20",
		"wm 10", "end")
}

func TestTemporalJoinVersionOfTheSameTimeReplaced(t *testing.T) {
	tjCheck(t, tjShape{rightUpdates: true}, []tmpEvent{
		tjR("+I", 1, 1, 10), tjR("+U", 5, 1, 20), tjR("+U", 5, 1, 25), // Flink keeps versions by time
		tjL(5, 1, 100),
		tjR("-U", 8, 1, 25), tjR("+U", 8, 1, 30), // an update at one time: the +U stays
		tjL(9, 1, 101),
		tjWM(10),
	},
		"5 1 100 5 1 25",
		"9 1 101 8 1 30",
		"wm 10", "end")
}

func TestTemporalJoinVersionDeleted(t *testing.T) {
	events := []tmpEvent{
		tjR("+I", 1, 1, 10), tjR("-D", 4, 1, 10), tjR("+I", 8, 1, 30),
		tjL(2, 1, 100), tjL(4, 1, 101), tjL(6, 1, 102), tjL(9, 1, 103),
		tjWM(10),
	}
	tjCheck(t, tjShape{rightUpdates: true}, events,
		"2 1 100 1 1 10",
		"9 1 103 8 1 30",
		"wm 10", "end")
	tjCheck(t, tjShape{rightUpdates: true, outer: true}, events,
		"2 1 100 1 1 10",
		"4 1 101 NULL NULL NULL", // the -D ends the version at its time
		"6 1 102 NULL NULL NULL",
		"9 1 103 8 1 30",
		"wm 10", "end")
}

func TestTemporalJoinLeftOuterPadding(t *testing.T) {
	s := tjShape{outer: true, residual: true}
	tjCheck(t, s, []tmpEvent{
		tjR("+I", 1, 1, 10), tjR("+I", 1, 2, 20),
		tjL(2, 1, 10),      // the condition v <> rate is FALSE
		tjL(2, 1, 11),      // TRUE
		tjL(2, 3, 12),      // a key without versions
		{time: 2, val: 13}, // a NULL key
		tjL(3, 2, 20),      // FALSE
		tjL(3, 2, 21),      // TRUE
		tjWM(3),
	},
		"2 1 10 NULL NULL NULL",
		"2 1 11 1 1 10",
		"2 3 12 NULL NULL NULL",
		"2 NULL 13 NULL NULL NULL",
		"3 2 20 NULL NULL NULL",
		"3 2 21 1 2 20",
		"wm 3", "end")
	s.outer = false
	tjCheck(t, s, []tmpEvent{
		tjR("+I", 1, 1, 10),
		tjL(2, 1, 10), tjL(2, 1, 11), {time: 2, val: 13},
		tjWM(3),
	},
		"2 1 11 1 1 10",
		"wm 3", "end")
}

func TestTemporalJoinNullSafeKey(t *testing.T) {
	tjCheck(t, tjShape{nullSafe: true}, []tmpEvent{
		{input: 1, time: 1, val: 10}, // a version of the NULL key
		{time: 2, val: 13},
		tjWM(3),
	},
		"2 NULL 13 1 NULL 10",
		"wm 3", "end")
}

// Rows fire by time, then arrival: the probe rows of one time in the
// order they came, whatever their keys.
func TestTemporalJoinRowsAtEqualTimes(t *testing.T) {
	tjCheck(t, tjShape{outer: true}, []tmpEvent{
		tjL(5, 2, 100), tjL(3, 1, 101), tjL(5, 1, 102), tjL(3, 2, 103),
		tjR("+I", 3, 1, 10), tjR("+I", 5, 2, 20),
		tjWM(4),
		tjL(5, 1, 104),
		tjWM(5),
	},
		"3 1 101 3 1 10",
		"3 2 103 NULL NULL NULL",
		"wm 4",
		"5 2 100 5 2 20",
		"5 1 102 3 1 10",
		"5 1 104 3 1 10",
		"wm 5", "end")
}

// A probe row whose time the watermark has passed is not dropped: as in
// Flink, its key's timer is due, so it joins at the next watermark with
// the versions kept then. A key that fired at watermark w kept its
// version valid at w and the later ones; one that did not fire since
// keeps older ones too.
func TestTemporalJoinLateProbeRow(t *testing.T) {
	events := []tmpEvent{
		tjR("+I", 1, 1, 10), tjR("+I", 5, 1, 20),
		tjR("+I", 1, 2, 30), tjR("+I", 5, 2, 40),
		tjL(2, 1, 100),
		tjWM(3), // both keys fire (their timers are at 1) and keep 1 and 5
		tjL(4, 1, 101),
		tjWM(6),        // key 1 fires (its probe row at 4) and keeps only 5; key 2 does not
		tjL(3, 1, 102), // late: version 1 is gone
		tjL(3, 2, 103), // late: key 2 still has version 1
		tjL(6, 1, 104), // late, and finds 5
		tjWM(7),
	}
	tjCheck(t, tjShape{outer: true}, events,
		"2 1 100 1 1 10",
		"wm 3",
		"4 1 101 1 1 10",
		"wm 6",
		"3 1 102 NULL NULL NULL",
		"3 2 103 1 2 30",
		"6 1 104 5 1 20",
		"wm 7", "end")
}

// As Flink, a key keeps the version valid at the watermark even when it is
// a -D: a right row coming late, older than the -D, does not become
// valid after it.
func TestTemporalJoinLateVersionBeforeRetraction(t *testing.T) {
	tjCheck(t, tjShape{rightUpdates: true, outer: true}, []tmpEvent{
		tjR("+I", 1, 1, 10), tjR("-D", 5, 1, 10),
		tjWM(6),
		tjR("+I", 3, 1, 30), // late
		tjL(4, 1, 100),      // late: finds the late version
		tjL(7, 1, 101),      // the -D at 5 still ends it
		tjWM(8),
	},
		"wm 6",
		"4 1 100 3 1 30",
		"7 1 101 NULL NULL NULL",
		"wm 8", "end")
}

// A probe input that is an update stream keeps its rows' kinds, as
// Flink's output row takes the probe row's kind.
func TestTemporalJoinUpdateStreamLeftKeepsKinds(t *testing.T) {
	s := tjShape{leftUpdates: true, outer: true}
	cfg := s.config()
	require.True(t, cfg.Updates())
	schema, err := cfg.OutputSchema()
	require.NoError(t, err)
	require.True(t, windowop.IsRowKindField(schema.Field(0)))
	require.Equal(t, 7, schema.NumFields())
	require.False(t, tjShape{outer: true}.config().Updates())
	lrow := func(kind string, time, key, val int64) tmpEvent {
		e := tjL(time, key, val)
		e.kind = kind
		return e
	}
	tjCheck(t, s, []tmpEvent{
		tjR("+I", 1, 1, 10),
		lrow("+I", 2, 1, 100), lrow("-U", 3, 1, 100), lrow("+U", 3, 1, 101), lrow("-D", 4, 2, 7),
		tjWM(5),
	},
		"+I 2 1 100 1 1 10",
		"-U 3 1 100 1 1 10",
		"+U 3 1 101 1 1 10",
		"-D 4 2 7 NULL NULL NULL",
		"wm 5", "end")
}

// The state goes with the watermark: fired probe rows, versions older
// than the one valid at the watermark, and keys with nothing left.
func TestTemporalJoinStateIsCleaned(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := tjShape{outer: true}.config()
	op, err := New(cfg, mem, &tjLog{})
	require.NoError(t, err)
	defer op.Close()
	tj := op.(*temporalJoin)
	var events []tmpEvent
	for i := range int64(100) {
		events = append(events, tjR("+I", i, i%10, i), tjL(i, 100+i, i))
	}
	for _, e := range events {
		rec := tjBatch(mem, map[int]*arrow.Schema{0: cfg.Left, 1: cfg.Right}[e.input], []tmpEvent{e})
		require.NoError(t, op.ProcessInput(e.input, pipeline.Batch{Record: rec}))
		rec.Release()
	}
	require.Equal(t, 100, tj.left.Len())
	require.Equal(t, 100, tj.right.Len())
	require.NoError(t, op.ProcessWatermark(1000))
	require.Equal(t, 0, tj.left.Len())
	require.Equal(t, 10, tj.right.Len(), "one version a key")
	require.Len(t, tj.keys.byKey, 10, "the probe rows' keys are forgotten")
	require.Equal(t, Stats{RowsIn: 200, ResultRows: 100}, op.Stats())
}

func TestTemporalJoinRefusesBadState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := tjShape{}.config()
	op, err := New(cfg, mem, &tjLog{})
	require.NoError(t, err)
	rec := tjBatch(mem, cfg.Right, []tmpEvent{tjR("+I", 1, 1, 10)})
	require.NoError(t, op.ProcessInput(1, pipeline.Batch{Record: rec}))
	rec.Release()
	var e checkpoint.Encoder
	require.NoError(t, op.SnapshotState(&e))
	op.Close()
	data := e.Data()
	for _, cut := range []int{1, len(data) / 2, len(data) - 1} {
		restored, err := New(cfg, mem, &tjLog{})
		require.NoError(t, err)
		d := checkpoint.NewDecoder(data[:cut])
		err = restored.RestoreState(d)
		if err == nil {
			err = d.Finish()
		}
		require.True(t, errors.Is(err, checkpoint.ErrCorrupt), "cut at %d: %v", cut, err)
		restored.Close()
	}
}

func TestTemporalJoinConfigErrors(t *testing.T) {
	cfg := tjShape{}.config()
	cfg.Temporal = &Temporal{LeftTime: 2, RightTime: 0}
	_, err := New(cfg, memory.NewGoAllocator(), &tjLog{})
	require.ErrorContains(t, err, "left time column 2")
	cfg = tjShape{}.config()
	cfg.Kind = FullOuter
	_, err = New(cfg, memory.NewGoAllocator(), &tjLog{})
	require.ErrorContains(t, err, "INNER or LEFT")
}

// tjOneInput drives the join as a single-input operator for the contract
// test: a batch of the right input's schema goes to the right, any other
// to the left.
type tjOneInput struct {
	Operator
	right *arrow.Schema
}

func (o tjOneInput) ProcessBatch(b pipeline.Batch) error {
	input := 0
	if b.Record.Schema().Equal(o.right) {
		input = 1
	}
	return o.ProcessInput(input, b)
}

func TestTemporalJoinKeepsTheOperatorContract(t *testing.T) {
	for _, s := range []tjShape{{rightUpdates: true}, {outer: true, residual: true}} {
		cfg := s.config()
		steps := func(mem memory.Allocator, events []tmpEvent) []pipelinetest.Step {
			var out []pipelinetest.Step
			for _, e := range events {
				switch e.input {
				case tjWatermark:
					out = append(out, pipelinetest.WatermarkStep(e.time))
				case 0:
					out = append(out, pipelinetest.BatchStep(tjBatch(mem, cfg.Left, []tmpEvent{e}), nil))
				case 1:
					out = append(out, pipelinetest.BatchStep(tjBatch(mem, cfg.Right, []tmpEvent{e}), nil))
				}
			}
			return out
		}
		t.Run(fmt.Sprintf("%+v", s), func(t *testing.T) { tjContract(t, cfg, steps) })
	}
}

func tjContract(t *testing.T, cfg Config, steps func(memory.Allocator, []tmpEvent) []pipelinetest.Step) {
	pipelinetest.TestOperator(t, pipelinetest.Harness{
		New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			op, err := New(cfg, mem, next)
			if err != nil {
				return nil, err
			}
			return tjOneInput{op, cfg.Right}, nil
		},
		Input: func(mem memory.Allocator) []pipelinetest.Step {
			return steps(mem, []tmpEvent{
				tjR("+I", 1, 1, 10), tjL(2, 1, 100), tjL(3, 2, 101), tjWM(2),
				tjR("+U", 4, 1, 20), tjL(5, 1, 102), tjL(6, 1, 20), tjWM(5), tjL(7, 1, 103),
			})
		},
		FailingInput: func(mem memory.Allocator) []pipelinetest.Step {
			b := array.NewRecordBuilder(mem, cfg.Left)
			defer b.Release()
			for _, f := range b.Fields() {
				f.AppendNull() // a NULL time
			}
			return []pipelinetest.Step{pipelinetest.BatchStep(b.NewRecordBatch(), nil)}
		},
		ResultTime: func(rec arrow.RecordBatch, row int) int64 {
			return int64(rec.Column(0).(*array.Timestamp).Value(row))
		},
	})
}
