package exec

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// lateFile is the CSV file of 'wsql.late-data.path': the window operator's
// side output of rows that missed a window.
type lateFile struct {
	f    *os.File
	buf  *bufio.Writer
	w    ResultWriter
	sink *WriterSink
}

func openLateFile(path string, schema *arrow.Schema) (*lateFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("late data file: %w", err)
	}
	buf := bufio.NewWriter(f)
	w := NewCSVWriter(buf, schema, time.UTC)
	return &lateFile{f: f, buf: buf, w: w, sink: NewWriterSink(w)}, nil
}

// close writes the header even when no row was late, then flushes.
func (l *lateFile) close() error {
	err := l.w.Close()
	if ferr := l.buf.Flush(); err == nil {
		err = ferr
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}
