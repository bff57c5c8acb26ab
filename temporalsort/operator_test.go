package temporalsort

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64},
}, nil)

type row struct {
	ts int64
	k  string // "" is NULL
	v  int64
}

func batch(mem memory.Allocator, rows ...row) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, testSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
		if r.k == "" {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(r.k)
		}
		b.Field(2).(*array.Int64Builder).Append(r.v)
	}
	return b.NewRecordBatch()
}

// sampleInput: rows out of order within the watermark's delay, one late
// row (ts 900 under watermark 1500), ties on time ordered by k DESC
// (NULL last: it sorts first ascending).
func sampleInput(mem memory.Allocator) []pipelinetest.Step {
	return []pipelinetest.Step{
		pipelinetest.BatchStep(batch(mem, row{2000, "a", 1}, row{1000, "b", 2}, row{1000, "c", 3}), nil),
		pipelinetest.WatermarkStep(1500),
		pipelinetest.BatchStep(batch(mem, row{900, "late", 4}, row{3000, "a", 5}, row{2000, "z", 6}, row{2000, "", 7}), []int64{1500, 1500, 1500, 1500}),
		pipelinetest.WatermarkStep(2600),
		pipelinetest.BatchStep(batch(mem, row{4000, "a", 8}, row{3000, "b", 9}), nil),
		pipelinetest.WatermarkStep(3000),
	}
}

var sampleKeys = []Key{{Column: 0}, {Column: 1, Desc: true}}

func TestOperatorConformance(t *testing.T) {
	pipelinetest.TestOperator(t, pipelinetest.Harness{
		New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			return New(Config{Input: testSchema, Keys: sampleKeys}, mem, next)
		},
		Input: sampleInput,
		ResultTime: func(rec arrow.RecordBatch, row int) int64 {
			return int64(rec.Column(0).(*array.Timestamp).Value(row))
		},
	})
}

// collector records what reaches it as text.
type collector struct {
	lines []string
}

func (c *collector) ProcessBatch(b pipeline.Batch) error {
	r := b.Record
	for i := 0; i < int(r.NumRows()); i++ {
		k := "NULL"
		if s := r.Column(1).(*array.String); s.IsValid(i) {
			k = s.Value(i)
		}
		c.lines = append(c.lines, fmt.Sprintf("%d %s %d", r.Column(0).(*array.Timestamp).Value(i), k, r.Column(2).(*array.Int64).Value(i)))
	}
	return nil
}
func (c *collector) ProcessWatermark(wm int64) error {
	c.lines = append(c.lines, fmt.Sprintf("wm %d", wm))
	return nil
}
func (c *collector) ProcessEnd() error { c.lines = append(c.lines, "end"); return nil }
func (c *collector) Close()            {}

func play(t *testing.T, op pipeline.Operator, steps []pipelinetest.Step) {
	for _, s := range steps {
		if s.Batch.Record != nil {
			require.NoError(t, op.ProcessBatch(s.Batch))
			s.Batch.Record.Release()
		} else {
			require.NoError(t, op.ProcessWatermark(s.Watermark))
		}
	}
}

// TestReleaseOrder pins the release rule: rows at or before the
// watermark come out sorted by time, then by the other keys, before the
// watermark; a late row is dropped and counted; the end releases the rest.
func TestReleaseOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	c := &collector{}
	op, err := New(Config{Input: testSchema, Keys: sampleKeys}, mem, c)
	require.NoError(t, err)
	play(t, op, sampleInput(mem))
	require.NoError(t, op.ProcessEnd())
	op.Close()
	require.Equal(t, strings.Join([]string{
		"1000 c 3", "1000 b 2", "wm 1500",
		"2000 z 6", "2000 a 1", "2000 NULL 7", "wm 2600",
		"3000 b 9", "3000 a 5", "wm 3000",
		"4000 a 8", "end",
	}, "\n"), strings.Join(c.lines, "\n"))
	require.Equal(t, int64(1), op.Late())
}

// TestSnapshotRestore: a run restored from a snapshot taken at any step
// gives the output the uninterrupted run gives from there.
func TestSnapshotRestore(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg := Config{Input: testSchema, Keys: sampleKeys}
	steps := sampleInput(mem)
	defer func() {
		for _, s := range steps {
			if s.Batch.Record != nil {
				s.Batch.Record.Release()
			}
		}
	}()
	run := func(op *Operator, c *collector, from, to int) {
		for _, s := range steps[from:to] {
			if s.Batch.Record != nil {
				require.NoError(t, op.ProcessBatch(s.Batch))
			} else {
				require.NoError(t, op.ProcessWatermark(s.Watermark))
			}
		}
	}
	ref := &collector{}
	whole, err := New(cfg, mem, ref)
	require.NoError(t, err)
	run(whole, ref, 0, len(steps))
	require.NoError(t, whole.ProcessEnd())
	whole.Close()
	for cut := 0; cut <= len(steps); cut++ {
		first := &collector{}
		op, err := New(cfg, mem, first)
		require.NoError(t, err)
		run(op, first, 0, cut)
		var e checkpoint.Encoder
		require.NoError(t, op.SnapshotState(&e))
		op.Close()
		second := &collector{}
		restored, err := New(cfg, mem, second)
		require.NoError(t, err)
		d := checkpoint.NewDecoder(e.Data())
		require.NoError(t, restored.RestoreState(d))
		require.NoError(t, d.Finish())
		run(restored, second, cut, len(steps))
		require.NoError(t, restored.ProcessEnd())
		restored.Close()
		require.Equal(t, ref.lines, append(first.lines, second.lines...), "cut at step %d", cut)
		require.Equal(t, whole.Late(), restored.Late(), "cut at step %d", cut)
	}
}
