package wsql

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// gatedInput is a stream that says when it is asked for more input
// (asked, unbuffered) and then hands out the next piece the test gives
// (pieces; closed is the end of the input), each in one short read.
type gatedInput struct {
	asked  chan struct{}
	pieces chan string
	rest   string
}

func (g *gatedInput) Read(p []byte) (int, error) {
	if g.rest == "" {
		g.asked <- struct{}{}
		piece, ok := <-g.pieces
		if !ok {
			return 0, io.EOF
		}
		g.rest = piece
	}
	n := copy(p, g.rest)
	g.rest = g.rest[n:]
	return n, nil
}

// firstBatchWriter writes CSV and says when the first batch is written
// (first, unbuffered: the query waits until the test has seen it).
type firstBatchWriter struct {
	inner ResultWriter
	out   bytes.Buffer
	once  sync.Once
	first chan struct{}
}

func (w *firstBatchWriter) WriteBatch(rec RecordBatch) error {
	err := w.inner.WriteBatch(rec)
	w.once.Do(func() { w.first <- struct{}{} })
	return err
}

func (w *firstBatchWriter) Close() error { return w.inner.Close() }

// A window's result is written as soon as the rows that move the
// watermark past it are read, before wsql asks for more input: nothing
// (a batch waiting to fill, a decoder waiting for bytes, an output
// buffer) holds it until the next rows come. The row that fires the
// window comes in two pieces, the second shorter than the first, as a
// writer that writes a line in parts and then pauses sends it.
func TestWindowResultIsWrittenBeforeMoreInputIsRead(t *testing.T) {
	for _, parallelism := range []string{"1", "2"} {
		t.Run("parallelism "+parallelism, func(t *testing.T) { testResultNotHeld(t, parallelism) })
	}
}

func testResultNotHeld(t *testing.T, parallelism string) {
	in := &gatedInput{asked: make(chan struct{}), pieces: make(chan string)}
	w := &firstBatchWriter{first: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		e := New(WithStdin(in))
		done <- e.Run(context.Background(), `SET 'parallelism.default' = '`+parallelism+`';
			CREATE TABLE t (ts TIMESTAMP(3), k STRING,
			WATERMARK FOR ts AS ts) WITH ('connector' = 'stdin', 'format' = 'csv');
			SELECT k, TUMBLE_END(ts, INTERVAL '0.01' SECOND) AS wend, COUNT(*) AS n
			FROM t GROUP BY k, TUMBLE(ts, INTERVAL '0.01' SECOND);`, Output{
			NewWriter: func(r ResultInfo) (ResultWriter, error) {
				w.inner = NewCSVWriter(&w.out, r.Schema, time.UTC)
				return w, nil
			},
		})
	}()
	for _, piece := range []string{
		"1970-01-01 00:00:00.001,a\n1970-01-01 00:00:00.005,b\n1970-01-01 00:00:00.0",
		"09,a\n", // the window [0, 10 ms) fires after this row
	} {
		select {
		case <-in.asked:
			in.pieces <- piece
		case err := <-done:
			t.Fatalf("the query ended before reading its input: %v", err)
		}
	}
	select {
	case <-w.first:
	case <-in.asked:
		t.Fatal("wsql asked for more input before writing the window the watermark had passed")
	case err := <-done:
		t.Fatalf("the query ended before writing the window: %v", err)
	}
	require.Equal(t, "k,wend,n\na,1970-01-01 00:00:00.010,2\nb,1970-01-01 00:00:00.010,1\n", w.out.String())
	<-in.asked
	close(in.pieces)
	require.NoError(t, <-done)
	require.Equal(t, "k,wend,n\na,1970-01-01 00:00:00.010,2\nb,1970-01-01 00:00:00.010,1\n", w.out.String())
}
