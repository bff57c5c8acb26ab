package writer

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format"
)

// Each text writer, restored from its state after any batch into a fresh
// writer, continues the output as the uninterrupted writer does: no second
// CSV header, a table with its widths and its row count.
func TestResultWritersResumeFromTheirState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	batches := []func() []any{
		func() []any {
			return []any{[]int64{1704067200000}, []string{"bob"}, []int64{3}, []float64{12.5}, []bool{true}}
		},
		func() []any {
			return []any{[]int64{1704067260000, 1}, []string{"a much longer name", ""}, []int64{12345678, 1}, []float64{1, 0}, []bool{true, false}}
		},
		func() []any {
			return []any{[]int64{1704067320000}, []string{"al"}, []int64{4}, []float64{2}, []bool{true}}
		},
	}
	write := func(w ResultWriter, from, to int) {
		for _, b := range batches[from:to] {
			a := b()
			rec := resultBatch(mem, a[0].([]int64), a[1].([]string), a[2].([]int64), a[3].([]float64), a[4].([]bool))
			require.NoError(t, w.WriteBatch(rec))
			rec.Release()
		}
	}
	formats := map[string]func(io.Writer) ResultWriter{
		"csv":   func(o io.Writer) ResultWriter { return NewCSVWriter(o, resultSchema, time.UTC) },
		"json":  func(o io.Writer) ResultWriter { return NewJSONWriter(o, resultSchema, time.UTC, format.TimestampSQL) },
		"table": func(o io.Writer) ResultWriter { return NewTableWriter(o, resultSchema, time.UTC) },
	}
	for name, newWriter := range formats {
		var want bytes.Buffer
		w := newWriter(&want)
		write(w, 0, len(batches))
		require.NoError(t, w.Close())
		for cut := range len(batches) + 1 {
			var got bytes.Buffer
			w := newWriter(&got).(ResumableWriter)
			write(w, 0, cut)
			var e checkpoint.Encoder
			w.SaveState(&e)
			resumed := newWriter(&got).(ResumableWriter)
			d := checkpoint.NewDecoder(e.Data())
			resumed.RestoreState(d)
			require.NoError(t, d.Finish())
			write(resumed, cut, len(batches))
			require.NoError(t, resumed.Close())
			require.Equal(t, want.String(), got.String(), "%s resumed after %d batches", name, cut)
		}
	}
}

// A table's state must fit its schema.
func TestTableWriterRefusesAnotherTablesState(t *testing.T) {
	for _, c := range []struct {
		widths []int
		rows   int64
		want   string
	}{
		{[]int{23, 4}, 3, "a table of 2 columns restored into one of 4"},
		{[]int{23, 4, 1, 20}, 3, "column 3 is 1 wide"},
		{[]int{23, 4, 8, 20}, -1, "a table of -1 rows"},
	} {
		var e checkpoint.Encoder
		e.Bool(true)
		e.Int(c.rows)
		checkpoint.Ints(&e, c.widths)
		w := NewTableWriter(io.Discard, resultSchema, time.UTC).(ResumableWriter)
		d := checkpoint.NewDecoder(e.Data())
		w.RestoreState(d)
		require.ErrorContains(t, d.Err(), c.want)
	}
}
