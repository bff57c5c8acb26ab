package exectest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/windowop"
)

// Event is one input row: event time in epoch milliseconds, key, value.
type Event struct {
	TS int64
	K  string
	V  int64
}

// EventsCSV writes events as CSV lines of EventSchema.
func EventsCSV(rows []Event) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%s,%d\n", time.UnixMilli(r.TS).UTC().Format("2006-01-02 15:04:05.000"), r.K, r.V)
	}
	return b.String()
}

// EventSchema is the schema of EventsCSV's lines: ts, k, v.
func EventSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
}

// CountJob counts rows and sums v per key over one-minute tumbling windows
// of src, which reads EventSchema, with a watermark delay in milliseconds.
func CountJob(t testing.TB, src exec.Source, delay int64) *exec.Job {
	t.Helper()
	tumble, err := windowop.NewTumble(60_000, 0)
	require.NoError(t, err)
	cfg := windowop.Config{
		Input: EventSchema(), RowtimeIndex: 0, KeyIndexes: []int{1}, Assigner: tumble, GapIndex: -1,
		Aggs: []windowop.AggSpec{{Kind: windowop.CountStar, Name: "n"}, {Kind: windowop.Sum, Input: 2, Name: "sv"}},
	}
	out, err := cfg.OutputSchema()
	require.NoError(t, err)
	cols := make([]int, out.NumFields())
	for i := range cols {
		cols[i] = i
	}
	return &exec.Job{
		Source:       src,
		RowtimeIndex: 0,
		DelayMillis:  delay,
		Window:       &cfg,
		Project:      exec.ProjectSpec{Columns: cols, Schema: out},
	}
}
