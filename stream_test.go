package wsql

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// signalWriter is a ResultWriter that reports each batch on a channel.
type signalWriter struct {
	mu    sync.Mutex
	out   bytes.Buffer
	inner ResultWriter
	batch chan struct{}
}

func (w *signalWriter) WriteBatch(rec RecordBatch) error {
	w.mu.Lock()
	err := w.inner.WriteBatch(rec)
	w.mu.Unlock()
	w.batch <- struct{}{}
	return err
}

func (w *signalWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.inner.Close()
}

// TestPipedStreamEmitsWhileRunning feeds a 'stdin' table through a real
// pipe: the first minute's windows come out while the writer is still
// writing, and the rest at the end of the input.
func TestPipedStreamEmitsWhileRunning(t *testing.T) {
	data, err := os.ReadFile("testdata/examples/clicks.csv")
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()

	w := &signalWriter{batch: make(chan struct{}, 100)}
	done := make(chan error, 1)
	go func() {
		e := New(WithStdin(pr))
		done <- e.Run(context.Background(), `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
			WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'stdin', 'format' = 'csv');
			SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);`, Output{
			NewWriter: func(r ResultInfo) (ResultWriter, error) {
				w.inner = NewCSVWriter(&w.out, r.Schema, time.UTC)
				return w, nil
			},
		})
	}()
	// the first 20 rows reach 09:01:20: the watermark passes the first minute
	_, err = pw.WriteString(strings.Join(lines[:20], ""))
	require.NoError(t, err)
	select {
	case <-w.batch:
	case err := <-done:
		t.Fatalf("query ended early: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no window emitted while the stream was open")
	}
	w.mu.Lock()
	require.Equal(t, "usr,n\ncarol,3\nalice,5\nbob,4\n", w.out.String(), "the first minute, before the input ends")
	w.mu.Unlock()

	_, err = pw.WriteString(strings.Join(lines[20:], ""))
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("query did not end after the input closed")
	}
	require.True(t, strings.HasSuffix(w.out.String(), "alice,1\n"), w.out.String())
}
