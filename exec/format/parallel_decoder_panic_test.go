package format

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/leakcheck"
	"github.com/wsql/wsql/pipeline"
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

func (p panickingChunks) decoder(chunk []byte, off int64, line int, first bool, onBad func(*ParseError, []byte), w *chunkWorker) Decoder {
	return &panickingDecoder{Decoder: p.csvChunks.decoder(chunk, off, line, first, onBad, w)}
}

type panickingDecoder struct {
	Decoder
	batches int
}

func (d *panickingDecoder) Next() (arrow.RecordBatch, error) {
	if d.batches++; d.batches > 1 {
		panic("decoder bug")
	}
	return d.Decoder.Next()
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
		f := panickingChunks{csvChunks: newCSVChunks("f.csv", parallelSchema, CSVOptions{}, mem, 10), inCut: c.inCut}
		par := newParallelDecoder(strings.NewReader(text), "f.csv", f, 2, 256, nil)
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
