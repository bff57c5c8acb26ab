package textsource

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/exectest"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/internal/leakcheck"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// requirePanicError checks err is a caught panic of wsql's with its value
// and the stack of where it happened.
func requirePanicError(t *testing.T, err error, value, frame string) {
	t.Helper()
	require.ErrorIs(t, err, pipeline.ErrInternal)
	var pe *pipeline.PanicError
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
	require.NoError(t, os.WriteFile(path, []byte(exectest.EventsCSV([]exectest.Event{{TS: 0, K: "x", V: 1}, {TS: 30_000, K: "y", V: 2}, {TS: 70_000, K: "x", V: 3}})), 0o644))
	for _, parallelism := range []int{1, 3} {
		before := runtime.NumGoroutine()
		j := splitJob(t, path, 0)
		j.Window.Assigner = panickingTumble{j.Window.Assigner.(windowop.SliceAssigner)}
		j.Parallelism = parallelism
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		var out bytes.Buffer
		_, err := j.Run(context.Background(), mem, writer.NewCSVWriter(&out, j.Schema(), time.UTC))
		requirePanicError(t, err, "window bug", "panickingTumble.WindowsOfPane")
		leakcheck.Goroutines(t, before)
		mem.AssertSize(t, 0)
	}
}
