package expand

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
)

var inSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "a", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// rollupSpec is ROLLUP(a, b): sets (a, b), (a), (), with the grouping id
// and GROUPING(b).
func rollupSpec() Spec {
	fields := append(inSchema.Fields(),
		arrow.Field{Name: "a", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "$e", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "$g0", Type: arrow.PrimitiveTypes.Int64})
	return Spec{
		Keys:   []int{1, 2},
		Sets:   [][]bool{{true, true}, {true, false}, {false, false}},
		Consts: [][]int64{{0, 0}, {1, 1}, {3, 1}},
		Schema: arrow.NewSchema(fields, nil),
	}
}

type row struct {
	ts   int64
	a    string // "" is NULL
	b    int64  // -1 is NULL
	wmAt int64
}

func batch(mem memory.Allocator, rows []row) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, inSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
		if r.a == "" {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(r.a)
		}
		if r.b < 0 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.Int64Builder).Append(r.b)
		}
	}
	return b.NewRecordBatch()
}

var sample = [][]row{
	{{1000, "x", 1, 0}, {2000, "", 2, 500}, {1500, "y", -1, 500}},
	{{3000, "x", 7, 1500}},
}

func input(rowWatermarks bool) func(memory.Allocator) []pipelinetest.Step {
	return func(mem memory.Allocator) []pipelinetest.Step {
		var steps []pipelinetest.Step
		wm := int64(0)
		for _, rows := range sample {
			var wms []int64
			if rowWatermarks {
				for _, r := range rows {
					wms = append(wms, r.wmAt)
				}
			}
			steps = append(steps, pipelinetest.BatchStep(batch(mem, rows), wms))
			wm += 1500
			steps = append(steps, pipelinetest.WatermarkStep(wm))
		}
		return steps
	}
}

func TestExpandConformance(t *testing.T) {
	for _, rowWatermarks := range []bool{false, true} {
		pipelinetest.TestOperator(t, pipelinetest.Harness{
			New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
				return New(rollupSpec(), mem, next)
			},
			Input: input(rowWatermarks),
		})
	}
}

// collect keeps each batch's rows as text and its row watermarks.
type collect struct {
	rows []string
	wms  []int64
}

func (c *collect) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for r := 0; r < int(rec.NumRows()); r++ {
		var f []string
		for i := 1; i < int(rec.NumCols()); i++ {
			col := rec.Column(i)
			if col.IsNull(r) {
				f = append(f, "NULL")
				continue
			}
			f = append(f, col.ValueStr(r))
		}
		c.rows = append(c.rows, strings.Join(f, ","))
	}
	c.wms = append(c.wms, b.Watermarks...)
	return nil
}
func (c *collect) ProcessWatermark(int64) error { return nil }
func (c *collect) ProcessEnd() error            { return nil }
func (c *collect) Close()                       {}

// TestExpandRows pins the output: each row once per set, in row order,
// the key copies NULL outside their sets (a NULL key stays NULL), the
// original columns untouched, the constants per set, each copy under its
// row's watermark; and no Arrow memory left.
func TestExpandRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out collect
	e, err := New(rollupSpec(), mem, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, rows := range sample {
		rec := batch(mem, rows)
		var wms []int64
		for _, r := range rows {
			wms = append(wms, r.wmAt)
		}
		err := e.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: wms})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		// a, b, copy a, copy b, $e, GROUPING(b)
		"x,1,x,1,0,0", "x,1,x,NULL,1,1", "x,1,NULL,NULL,3,1",
		"NULL,2,NULL,2,0,0", "NULL,2,NULL,NULL,1,1", "NULL,2,NULL,NULL,3,1",
		"y,NULL,y,NULL,0,0", "y,NULL,y,NULL,1,1", "y,NULL,NULL,NULL,3,1",
		"x,7,x,7,0,0", "x,7,x,NULL,1,1", "x,7,NULL,NULL,3,1",
	}
	if strings.Join(out.rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(out.rows, "\n"), strings.Join(want, "\n"))
	}
	wantWms := []int64{0, 0, 0, 500, 500, 500, 500, 500, 500, 1500, 1500, 1500}
	if len(out.wms) != len(wantWms) {
		t.Fatalf("watermarks %v, want %v", out.wms, wantWms)
	}
	for i := range wantWms {
		if out.wms[i] != wantWms[i] {
			t.Fatalf("watermarks %v, want %v", out.wms, wantWms)
		}
	}
}

func TestSpecCheck(t *testing.T) {
	s := rollupSpec()
	s.Consts = s.Consts[:2]
	if _, err := New(s, memory.DefaultAllocator, &collect{}); err == nil {
		t.Error("a spec with fewer constant rows than sets was accepted")
	}
}
