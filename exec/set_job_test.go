package exec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
)

// rowsWriter keeps the rows written as text.
type rowsWriter struct{ rows []string }

func (w *rowsWriter) WriteBatch(rec arrow.RecordBatch) error {
	for i := 0; i < int(rec.NumRows()); i++ {
		var b []byte
		for j, c := range rec.Columns() {
			if j > 0 {
				b = append(b, ',')
			}
			b = format.AppendValue(b, c, i, nil)
		}
		w.rows = append(w.rows, string(b))
	}
	return nil
}

func (w *rowsWriter) Close() error { return nil }

// eventsSource is a bounded source of events, late ones among them.
func eventsSource(batchSize int) exec.Source {
	ts := &arrow.TimestampType{Unit: arrow.Millisecond}
	var rows [][]expr.Expr
	for i, ms := range []int64{0, 1_000, 61_000, 5_000, 125_000, 62_000, 30_000, 190_000, 121_000} {
		rows = append(rows, []expr.Expr{
			&expr.Literal{Type: ts, Int: ms},
			&expr.Literal{Type: arrow.BinaryTypes.String, Str: string(rune('a' + i%3))},
			&expr.Literal{Type: arrow.PrimitiveTypes.Int64, Int: int64(i)},
		})
	}
	return &exec.MakerSource{Maker: &exec.Values{Rows: rows}, SourceSpec: exec.SourceSpec{Table: "events", Schema: exectest.EventSchema(), BatchSize: batchSize}}
}

// The jobs of a statement set that share one read of their source give
// each the rows it gives alone, at every batch size and parallelism; the
// source's rows are counted once, each job's late rows and results; every
// batch fanned out is freed.
func TestSetJobSharesOneRead(t *testing.T) {
	for _, batch := range []int{1, 4096} {
		for _, par := range []int{1, 2} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			jobs := func() []*exec.Job {
				j1 := exectest.CountJob(t, eventsSource(batch), 0)
				j2 := exectest.CountJob(t, eventsSource(batch), 60_000) // keeps the late rows j1 drops
				j1.Parallelism, j2.Parallelism = par, par
				return []*exec.Job{j1, j2}
			}
			var alone []*rowsWriter
			var late int64
			for _, j := range jobs() {
				w := &rowsWriter{}
				st, err := j.Run(context.Background(), mem, w)
				require.NoError(t, err)
				alone = append(alone, w)
				late += st.LateRowsDropped
			}
			require.Positive(t, late)

			ws := []*rowsWriter{{}, {}}
			set := &exec.SetJob{Jobs: jobs(), Scans: []int{0, 0}}
			st, err := set.Run(context.Background(), mem, []writer.ResultWriter{ws[0], ws[1]})
			require.NoError(t, err)
			for i := range ws {
				require.Equal(t, alone[i].rows, ws[i].rows, "job %d, batch %d, parallelism %d", i, batch, par)
			}
			require.Equal(t, int64(9), st.RowsRead)
			require.Equal(t, late, st.LateRowsDropped)
			require.Equal(t, int64(len(alone[0].rows)+len(alone[1].rows)), st.ResultRows)
			mem.AssertSize(t, 0)
		}
	}
}

// Jobs of different scans run each over its own read; a failing one
// stops the set with its error.
func TestSetJobSeveralScans(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ws := []*rowsWriter{{}, {}, {}}
	set := &exec.SetJob{
		Jobs:  []*exec.Job{exectest.CountJob(t, eventsSource(2), 0), exectest.CountJob(t, eventsSource(3), 0), exectest.CountJob(t, eventsSource(2), 0)},
		Scans: []int{0, 1, 0},
	}
	st, err := set.Run(context.Background(), mem, []writer.ResultWriter{ws[0], ws[1], ws[2]})
	require.NoError(t, err)
	require.Equal(t, ws[0].rows, ws[1].rows)
	require.Equal(t, ws[0].rows, ws[2].rows)
	require.Equal(t, int64(18), st.RowsRead)

	failing := &exec.SetJob{Jobs: []*exec.Job{exectest.CountJob(t, eventsSource(2), 0), exectest.CountJob(t, eventsSource(2), 0)}, Scans: []int{0, 1}}
	_, err = failing.Run(context.Background(), mem, []writer.ResultWriter{&rowsWriter{}, failWriter{}})
	require.ErrorContains(t, err, "disk full")
	require.False(t, strings.Contains(err.Error(), "canceled"))
}

type failWriter struct{}

func (failWriter) WriteBatch(arrow.RecordBatch) error { return errDiskFull }
func (failWriter) Close() error                       { return nil }

var errDiskFull = errorString("disk full")

type errorString string

func (e errorString) Error() string { return string(e) }
