package pipelinetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

// The checks themselves are pinned here: a correct stage passes every one,
// and each broken stage fails the check of the rule it breaks.

// collector is a testing.TB that keeps the failures instead of reporting
// them, so a test can assert that a check fails.
type collector struct {
	testing.TB
	failures []string
}

type fatal struct{}

func (c *collector) Helper()           {}
func (c *collector) Error(args ...any) { c.failures = append(c.failures, fmt.Sprint(args...)) }
func (c *collector) Errorf(f string, args ...any) {
	c.failures = append(c.failures, fmt.Sprintf(f, args...))
}
func (c *collector) Fatalf(f string, args ...any) {
	c.Errorf(f, args...)
	panic(fatal{})
}

// failures runs check over h and returns what it reported.
func failures(t *testing.T, h Harness, check func(testing.TB, Harness, runResult)) []string {
	c := &collector{TB: t}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(fatal); !ok {
					panic(v)
				}
			}
		}()
		ref := run(c, h, runConfig{keepInputs: true, steps: -1})
		check(c, h, ref)
	}()
	return c.failures
}

var sampleSchema = arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)

func sampleInput(mem memory.Allocator) []Step {
	var steps []Step
	for i := range int64(3) {
		b := array.NewInt64Builder(mem)
		b.AppendValues([]int64{i, i + 10}, nil)
		col := b.NewArray()
		b.Release()
		rec := array.NewRecordBatch(sampleSchema, []arrow.Array{col}, 2)
		col.Release()
		steps = append(steps, BatchStep(rec, []int64{i * 10, i * 10}), WatermarkStep(i*10+5))
	}
	return steps
}

// copyStage passes on a copy of each batch: a correct stage, which the
// broken ones below change one rule at a time.
type copyStage struct {
	mem        memory.Allocator
	next       pipeline.Operator
	watermarks pipeline.WatermarkGate

	leak         bool // never release its own output
	staleWMs     bool // forward every watermark
	keep         bool // keep the last input without Retain, emit it at the end
	swallow      bool // ignore the downstream's errors
	closeNext    bool // close the downstream
	endTwice     bool // forward ProcessEnd twice
	releaseEarly bool // release its output before passing it on
	kept         arrow.RecordBatch
}

func (s *copyStage) ProcessBatch(b pipeline.Batch) error {
	in := b.Record.Column(0).(*array.Int64)
	bld := array.NewInt64Builder(s.mem)
	defer bld.Release()
	bld.AppendValues(in.Int64Values(), nil)
	col := bld.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(sampleSchema, []arrow.Array{col}, int64(col.Len()))
	if s.keep {
		s.kept = b.Record
	}
	if s.releaseEarly {
		rec.Release()
	} else if !s.leak {
		defer rec.Release()
	}
	err := s.next.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: append([]int64(nil), b.Watermarks...)})
	if s.swallow {
		return nil
	}
	return err
}

func (s *copyStage) ProcessWatermark(wm int64) error {
	if !s.staleWMs && !s.watermarks.Advance(wm) {
		return nil
	}
	err := s.next.ProcessWatermark(wm)
	if s.swallow {
		return nil
	}
	return err
}

func (s *copyStage) ProcessEnd() error {
	if s.kept != nil {
		if err := s.next.ProcessBatch(pipeline.Batch{Record: s.kept}); err != nil {
			return err
		}
	}
	if s.endTwice {
		if err := s.next.ProcessEnd(); err != nil {
			return err
		}
	}
	err := s.next.ProcessEnd()
	if s.swallow {
		return nil
	}
	return err
}

func (s *copyStage) Close() {
	if s.closeNext {
		s.next.Close()
	}
}

func harness(broken func(*copyStage)) Harness {
	return Harness{
		New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
			s := &copyStage{mem: mem, next: next}
			broken(s)
			return s, nil
		},
		Input: sampleInput,
	}
}

func TestACorrectStagePassesEveryCheck(t *testing.T) {
	TestOperator(t, harness(func(*copyStage) {}))
}

func TestEachBrokenRuleFailsItsCheck(t *testing.T) {
	checks := map[string]func(testing.TB, Harness, runResult){
		"Ownership":  testOwnership,
		"Order":      testOrder,
		"EndOfInput": testEndOfInput,
		"Errors":     testErrors,
		"Close":      func(t testing.TB, h Harness, _ runResult) { testClose(t, h) },
	}
	cases := []struct {
		name   string
		broken func(*copyStage)
		check  string
		want   string
	}{
		{"output never released", func(s *copyStage) { s.leak = true }, "Ownership", "bytes of Arrow memory still allocated"},
		{"output released before it is passed on", func(s *copyStage) { s.releaseEarly = true }, "Ownership", "released before it was passed downstream"},
		{"input kept without Retain", func(s *copyStage) { s.keep = true }, "Ownership", "each input released after its call changed what reached the downstream"},
		{"stale watermarks forwarded", func(s *copyStage) { s.staleWMs = true }, "Order", "watermarks only advance"},
		{"end forwarded twice", func(s *copyStage) { s.endTwice = true }, "EndOfInput", "ProcessEnd forwarded 2 times"},
		{"downstream error swallowed", func(s *copyStage) { s.swallow = true }, "Errors", "not the downstream's error"},
		{"downstream closed", func(s *copyStage) { s.closeNext = true }, "Close", "closed its downstream"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(failures(t, harness(c.broken), checks[c.check]), "\n")
			if !strings.Contains(got, c.want) {
				t.Errorf("check %s reported:\n%s\nwant a failure containing %q", c.check, got, c.want)
			}
		})
	}
}
