package exec

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/leakcheck"
	"github.com/wsql/wsql/windowop"
)

// requirePanicError checks err is a caught panic of wsql's with its value
// and the stack of where it happened.
func requirePanicError(t *testing.T, err error, value, frame string) {
	t.Helper()
	require.ErrorIs(t, err, ErrInternal)
	var pe *PanicError
	require.True(t, errors.As(err, &pe), "%v", err)
	require.Contains(t, err.Error(), "internal error: panic: "+value+"; this is a bug in wsql: please report it")
	require.Contains(t, pe.Stack, frame, "the stack shows where the panic happened")
}

// panickingTumble is a TUMBLE whose WindowsOfPane panics, standing for a
// bug in the window operator.
type panickingTumble struct{ windowop.SliceAssigner }

func (panickingTumble) WindowsOfPane(int64, []windowop.Window) []windowop.Window {
	panic("window bug")
}

// A panic in the window operator, on the driver's goroutine or on a
// partition's, ends the run with an error; the pipeline is closed (no
// goroutine left, no Arrow memory held).
func TestJobRunTurnsAPanicIntoAnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.csv")
	require.NoError(t, os.WriteFile(path, []byte(eventsCSV([]eventRow{{0, "x", 1}, {30_000, "y", 2}, {70_000, "x", 3}})), 0o644))
	for _, parallelism := range []int{1, 3} {
		before := runtime.NumGoroutine()
		j := splitJob(t, path, 0)
		j.Window.Assigner = panickingTumble{j.Window.Assigner.(windowop.SliceAssigner)}
		j.Parallelism = parallelism
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		var out bytes.Buffer
		_, err := j.Run(context.Background(), mem, NewCSVWriter(&out, j.Schema(), time.UTC))
		requirePanicError(t, err, "window bug", "panickingTumble.WindowsOfPane")
		leakcheck.Goroutines(t, before)
		mem.AssertSize(t, 0)
	}
}

// panickingChunks is a chunk format that panics where told: in cut, or
// in its decoder's Next after the first batch.
type panickingChunks struct {
	*csvChunks
	inCut bool
}

func (p panickingChunks) cut(b []byte, atEOF bool) int {
	if p.inCut {
		panic("cut bug")
	}
	return p.csvChunks.cut(b, atEOF)
}

func (p panickingChunks) decoder(chunk []byte, off int64, line int, first bool, onBad func(*ParseError, []byte)) positionDecoder {
	return &panickingDecoder{positionDecoder: p.csvChunks.decoder(chunk, off, line, first, onBad)}
}

type panickingDecoder struct {
	positionDecoder
	batches int
}

func (d *panickingDecoder) Next() (arrow.RecordBatch, error) {
	if d.batches++; d.batches > 1 {
		panic("decoder bug")
	}
	return d.positionDecoder.Next()
}

// A panic on one of the parallel decoder's goroutines (the reader cutting
// chunks, a worker decoding one) reaches Next as an error, after the
// batches before it; Close stops every goroutine.
func TestParallelDecoderTurnsAPanicIntoAnError(t *testing.T) {
	text := strings.Repeat("2024-03-01 09:00:00,abc,1.5\n", 200)
	for _, c := range []struct {
		inCut        bool
		value, frame string
	}{{true, "cut bug", "panickingChunks.cut"}, {false, "decoder bug", "panickingDecoder).Next"}} {
		before := runtime.NumGoroutine()
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		format := panickingChunks{csvChunks: newCSVChunks("f.csv", parallelSchema, CSVOptions{}, mem, 10), inCut: c.inCut}
		par := newParallelDecoder(strings.NewReader(text), "f.csv", format, 2, 256, nil)
		var err error
		for err == nil {
			var rec arrow.RecordBatch
			if rec, err = par.Next(); rec != nil {
				rec.Release()
			}
		}
		requirePanicError(t, err, c.value, c.frame)
		par.Close()
		leakcheck.Goroutines(t, before)
		mem.AssertSize(t, 0)
	}
}
