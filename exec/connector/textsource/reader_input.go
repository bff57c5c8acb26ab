package textsource

import (
	"fmt"
	"io"
	"sync"

	"github.com/wsql/wsql/exec"
)

// ReaderInput is an io.Reader a Go program attached as a table: the table
// is read in its format like the 'stdin' connector, as one split, and only
// once, since a reader cannot rewind. A second query over the table is an
// error instead of an empty result.
type ReaderInput struct {
	Name string // labels the input in errors and EXPLAIN

	mu    sync.Mutex
	r     io.Reader
	taken bool
}

// NewReaderInput wraps r; name labels it in errors.
func NewReaderInput(r io.Reader, name string) *ReaderInput {
	return &ReaderInput{Name: name, r: r}
}

// take hands out the reader to the one read that may have it.
func (in *ReaderInput) take() (io.Reader, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.taken {
		return nil, fmt.Errorf("%w: %s was already read by an earlier query; an io.Reader can be read once", exec.ErrSource, in.Name)
	}
	in.taken = true
	return in.r, nil
}
