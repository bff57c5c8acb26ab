package textsource

import (
	"context"
	"io"

	"github.com/wsql/wsql/exec"
)

// streamInput is a stream (standard input, an io.Reader attached from Go)
// as one run reads it: a read waiting for input ends as soon as the run
// is stopped (SIGINT, SIGTERM, a cancelled context), instead of when the
// next line arrives. Without it, `tail -f log | wsql ...` stopped by a
// supervisor that signals only wsql (systemd, docker stop) hangs.
//
// Each Read of the stream runs in a goroutine of its own, into a buffer of
// its own, and the caller waits for it or for the context. This works for
// every io.Reader. Read deadlines do not: os.Stdin on a pipe or terminal is
// in blocking mode and not registered with Go's poller (os.NewFile adds
// only a descriptor that is already non-blocking), so SetReadDeadline
// fails with os.ErrNoDeadline; making it non-blocking would change the file
// description shared with the processes around (the shell's terminal, the
// other end's siblings), also after wsql exits. The cost is one goroutine
// and one copy per read of up to a buffer's length, not per row.
//
// A read that the stop abandons goes on in its goroutine until the stream
// returns (the next input, or its end); what it reads then is dropped, as
// the run is over. The stream is never closed: it is the caller's.
type streamInput struct {
	r   io.Reader
	ctx context.Context
	buf []byte // the goroutine reads into it while a read is in flight
	// inFlight carries the result of the read in flight; nil when none.
	inFlight chan streamRead
	held     []byte // bytes read and not yet handed out
	err      error  // the stream's error (io.EOF), sticky, after held
	// beforeRead, when set, runs before each read of the stream, which
	// may wait (exec.InputWaiter).
	beforeRead func()
}

type streamRead struct {
	n   int
	err error
}

func newStreamInput(r io.Reader) *streamInput {
	return &streamInput{r: r, ctx: context.Background()}
}

func (s *streamInput) Read(p []byte) (int, error) {
	if len(s.held) > 0 {
		n := copy(p, s.held)
		s.held = s.held[n:]
		return n, nil
	}
	if s.err != nil {
		return 0, s.err
	}
	if s.inFlight == nil {
		if err := s.ctx.Err(); err != nil {
			return 0, err // stopped: no new read
		}
		if len(p) == 0 {
			return 0, nil
		}
		if s.beforeRead != nil {
			s.beforeRead()
		}
		if cap(s.buf) < len(p) {
			s.buf = make([]byte, len(p))
		}
		buf, done := s.buf[:len(p)], make(chan streamRead, 1) // the goroutine never waits to send
		s.inFlight = done
		go func() {
			n, err := s.r.Read(buf)
			done <- streamRead{n, err}
		}()
	}
	select {
	case res := <-s.inFlight:
		s.inFlight = nil
		n := copy(p, s.buf[:res.n])
		s.held, s.err = s.buf[n:res.n], res.err // the error once held is handed out
		if len(s.held) > 0 {
			return n, nil
		}
		return n, res.err
	case <-s.ctx.Done():
		return 0, s.ctx.Err()
	}
}

// streamReader is the splitReader of a stream: a Follower, since it waits
// for input. Once the run's context is cancelled it hands out the rows of
// the lines it already read and then returns the context's error.
type streamReader struct {
	*splitReader
	in *streamInput
}

func (r streamReader) Follow(ctx context.Context) { r.in.ctx = ctx }

// BeforeWait runs flush before each read of the stream.
func (r streamReader) BeforeWait(flush func()) { r.in.beforeRead = flush }

var (
	_ exec.Follower    = streamReader{}
	_ exec.InputWaiter = streamReader{}
)
