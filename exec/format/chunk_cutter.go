package format

import (
	"fmt"
	"io"
	"sync"

	"github.com/wsql/wsql/pipeline"
)

// chunkCutter reads a file into chunks of whole records for the parallel
// decoder's workers, and queues each chunk's result for Next in file
// order. The workers take turns with it: each reads and cuts its next
// chunk itself, then decodes it while another worker reads, so a chunk's
// text is decoded on the core that copied it in from the file, not fetched
// from another core's cache (a reader goroutine handing chunks to the
// workers spent 4 to 5% more CPU on two cores, on the decoders' first pass
// over each chunk).
type chunkCutter struct {
	mu sync.Mutex
	d  *ParallelDecoder
	r  io.Reader
	f  chunkFormat

	source     string
	chunkBytes int
	carry      []byte // read after the last chunk cut
	off        int64  // where the next chunk starts
	line       int    // the lines before it
	first      bool   // it is the file's first (a header to skip)
	eof        bool
	readErr    error // after the chunk cut last: the next call fails with it
	rest       int64 // a resumed read: the length of the chunk it stopped in
	started    bool  // the file's start (a BOM) was read
	done       bool  // no more chunks: the results are closed
}

// newChunkCutter cuts r for d from at (see newParallelDecoderAt).
func newChunkCutter(d *ParallelDecoder, r io.Reader, source string, f chunkFormat, chunkBytes int, at SplitPosition) *chunkCutter {
	return &chunkCutter{
		d: d, r: r, f: f,
		source: source, chunkBytes: chunkBytes,
		off: at.Offset, line: at.Line, first: !at.Started,
		// A resumed read first finishes the chunk it stopped in, so that
		// every chunk after it, and so every batch, is the uninterrupted
		// read's.
		rest: at.ChunkEnd - at.Offset,
	}
}

// next cuts the next chunk into w's buffer and queues its result channel
// for Next; false when the file is over, failed, or the decoder is
// closing. The last call closes the results.
func (c *chunkCutter) next(w *chunkWorker) (chunkJob, bool) {
	c.mu.Lock()
	return c.nextLocked(w, false)
}

// tryNext is next for Next's goroutine (ParallelDecoder.help). It cuts
// nothing and returns false when another worker holds the lock, which it
// may hold while it waits for Next to take a result, or when as many
// chunks are queued as the workers may have in flight, so that the memory
// they hold stays bounded.
func (c *chunkCutter) tryNext(w *chunkWorker) (chunkJob, bool) {
	if !c.mu.TryLock() {
		return chunkJob{}, false
	}
	if d := c.d; len(d.ahead)+len(d.results) >= cap(d.results) {
		c.mu.Unlock()
		return chunkJob{}, false
	}
	return c.nextLocked(w, true)
}

// nextLocked is next with the lock held, which it releases; helping says
// the caller is Next's goroutine.
func (c *chunkCutter) nextLocked(w *chunkWorker, helping bool) (job chunkJob, ok bool) {
	defer c.mu.Unlock()
	if c.done {
		return chunkJob{}, false
	}
	c.d.helping = helping
	defer func() { c.d.helping = false }() // after the deferred queueing below, before the unlock
	// queued is the result channel of a chunk queued for Next and not yet
	// returned: a panic must still answer it, or Next would wait for it
	// forever.
	var queued chan chunkResult
	defer func() {
		if r := recover(); r != nil {
			err := pipeline.PanicAsError(r, "")
			if queued != nil {
				queued <- chunkResult{err: err}
			} else {
				c.d.fail(err)
			}
			job, ok = chunkJob{}, false
		}
		if !ok {
			c.done = true
			close(c.d.results)
		}
	}()
	return c.cut(w, &queued)
}

// cut reads and cuts the next chunk into w's buffer, skipping over-long
// records, and queues its result channel (also in *queued).
func (c *chunkCutter) cut(w *chunkWorker, queued *chan chunkResult) (chunkJob, bool) {
	d, f, r := c.d, c.f, c.r
	if !c.started {
		c.started = true
		if c.off == 0 {
			// A BOM is skipped before the first chunk, so chunks start at
			// the same offsets in a resumed read.
			start, bom, atEOF, err := readFileStart(r)
			if err != nil {
				d.fail(fmt.Errorf("%s: %w", c.source, err))
				return chunkJob{}, false
			}
			if bom {
				c.off = int64(len(utf8BOM))
			}
			c.carry, c.eof = start, atEOF
		}
	}
	for (!c.eof || len(c.carry) > 0) && c.readErr == nil {
		size := max(c.chunkBytes, len(c.carry), int(c.rest))
		if cap(w.buf) < size {
			w.buf = make([]byte, size)
		}
		buf := w.buf[:size] // not all its capacity: chunks, and so positions, do not depend on timing
		n := copy(buf, c.carry)
		// The chunk is cut in the first chunkBytes after its start, else
		// in twice that, and so on: its end depends only on where it
		// starts, not on what was read ahead for the chunk before.
		window := c.chunkBytes
		if c.rest > 0 {
			window = int(c.rest)
		}
		var cut int
		skipped := false
		for {
			for n < min(len(buf), window) && !c.eof {
				m, err := r.Read(buf[n:window])
				n += m
				if err == io.EOF {
					c.eof = true
				} else if err != nil {
					c.readErr = fmt.Errorf("%s: %w", c.source, err)
					break // the whole records read so far are still decoded
				}
			}
			whole := c.eof && n <= window
			if c.rest > 0 {
				cut = min(n, window) // whole records by construction
				break
			}
			if cut = f.cut(buf[:min(n, window)], whole); cut > 0 || whole || c.readErr != nil {
				break
			}
			if window > f.limit() {
				// The first record is longer than the limit: skip it
				// without holding it, or stop there.
				rec, ok := d.skipOverLong(r, c.source, f, buf, n, &c.eof, c.first, SplitPosition{Offset: c.off, Line: c.line})
				if !ok {
					return chunkJob{}, false
				}
				c.carry = append(c.carry[:0], rec.rest...)
				c.off, c.line, c.first = rec.end.Offset, rec.end.Line, false
				skipped = true
				break
			}
			window = min(2*window, f.limit()+1) // one record spans the window: read on
			if window > len(buf) {
				buf = append(buf[:n], make([]byte, window-n)...)
				buf = buf[:window]
				w.buf = buf
			}
		}
		if skipped {
			continue
		}
		c.rest = 0
		if c.eof && n <= window && cut < n && c.readErr == nil {
			cut = n
		}
		c.carry = append(c.carry[:0], buf[cut:n]...)
		chunk := buf[:cut]
		if len(chunk) == 0 {
			continue
		}
		out := make(chan chunkResult, 1)
		if !d.queue(out) {
			return chunkJob{}, false
		}
		*queued = out
		job := chunkJob{data: chunk, off: c.off, line: c.line, first: c.first, out: out}
		c.off += int64(len(chunk))
		c.line += f.lines(chunk)
		c.first = false
		return job, true
	}
	if c.readErr != nil {
		d.fail(c.readErr)
	}
	return chunkJob{}, false
}
