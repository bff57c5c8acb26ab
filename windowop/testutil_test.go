package windowop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/arrowtest"
	"github.com/wsql/wsql/pipeline"
)

// recorder is a sink operator that writes down everything it receives, in
// order, as text: "row ...", "wm N", "end".
type recorder struct {
	events []string
	closed int
}

func (r *recorder) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := 0; i < int(rec.NumRows()); i++ {
		var cells []string
		for c := 0; c < int(rec.NumCols()); c++ {
			col := rec.Column(c)
			if col.IsNull(i) {
				cells = append(cells, "NULL")
				continue
			}
			switch a := col.(type) {
			case *array.Timestamp:
				cells = append(cells, fmt.Sprint(int64(a.Value(i))))
			default:
				cells = append(cells, col.ValueStr(i))
			}
		}
		r.events = append(r.events, "row "+strings.Join(cells, " "))
	}
	return nil
}

func (r *recorder) ProcessWatermark(wm int64) error {
	r.events = append(r.events, fmt.Sprintf("wm %d", wm))
	return nil
}

func (r *recorder) ProcessEnd() error {
	r.events = append(r.events, "end")
	return nil
}

func (r *recorder) Close() { r.closed++ }

// rows returns only the result rows, without watermarks and end.
func (r *recorder) rows() []string {
	var out []string
	for _, e := range r.events {
		if strings.HasPrefix(e, "row ") {
			out = append(out, e)
		}
	}
	return out
}

var clickSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

type click struct {
	ts     int64
	usr    string
	amount float64
	null   bool // amount is NULL
}

func clickBatch(t *testing.T, mem memory.Allocator, rows []click) arrow.RecordBatch {
	t.Helper()
	return clickBatchSchema(t, mem, clickSchema, rows)
}

func tumbleConfig(t *testing.T, size int64) Config {
	t.Helper()
	tum, err := NewTumble(size, 0)
	require.NoError(t, err)
	return Config{
		Input:        clickSchema,
		RowtimeIndex: 0,
		KeyIndexes:   []int{1},
		Assigner:     tum,
		Aggs: []AggSpec{
			{Kind: CountStar, Name: "n"},
			{Kind: Sum, Input: 2, Name: "total"},
		},
	}
}

// watermarksFor computes per-row watermarks the way the rowtime stage does:
// each row sees the running max of ts - delay over the rows before it.
func watermarksFor(rows []click, delay int64, start int64) ([]int64, int64) {
	wm := start
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = wm
		if r.ts-delay > wm {
			wm = r.ts - delay
		}
	}
	return out, wm
}

func clickBatchSchema(t *testing.T, mem memory.Allocator, schema *arrow.Schema, rows []click) arrow.RecordBatch {
	t.Helper()
	values := make([][]any, len(rows))
	for i, r := range rows {
		values[i] = []any{r.ts, r.usr, r.amount}
		if r.null {
			values[i][2] = nil
		}
	}
	return arrowtest.Record(t, mem, schema, values...)
}
