package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
)

// ParallelDecoder decodes one file on several goroutines: workers take
// turns to read and cut the file's next chunk of whole records (a
// chunkCutter) and each decodes the chunk it cut into batches, and Next
// hands the batches out in file order. With n workers, n-1 are goroutines
// of their own and the last is Next's goroutine, which cuts and decodes a
// chunk whenever it would otherwise wait for one (help). Rows keep their
// order, so watermarks and results are those of a sequential decode; bad
// rows are reported, counted and written to the dead-letter file in file
// order too, and a failing row stops the read after the rows before it,
// as the sequential decoders do. Used for bounded reads of regular files,
// where throughput matters more than the latency of the first row.
//
// Each batch's bad rows are reported just before it, and its position is
// the chunk decoder's position after it (chunk decoders count offsets and
// lines from their chunk's place in the file), so Position works as for
// the sequential decoders.
type ParallelDecoder struct {
	results chan chan chunkResult // one per chunk, in file order
	ahead   []chan chunkResult    // taken off results by a helping Next to make room, in order, before them
	cutter  *chunkCutter
	helper  *chunkWorker // the memory of the chunks Next decodes itself; nil: it decodes none
	helping bool         // Next is cutting a chunk: set under the cutter's lock
	stop    chan struct{}
	wg      sync.WaitGroup
	bad     badRows // the bad rows reported so far

	cur      *chunkResult // the chunk being handed out
	next     int          // its next batch
	reported int          // its bad rows reported so far
	pos      SplitPosition
	err      error // sticky
	closed   bool
	onClose  func() // after the workers stop: the format's own clean-up
}

// chunkFormat is what the parallel decoder needs of a format.
type chunkFormat interface {
	// cut returns the length of b's prefix made of whole records, b
	// starting at a record's start; 0 when the first record does not end
	// within b and more input follows (!atEOF).
	cut(b []byte, atEOF bool) int
	// decoder decodes chunk, which starts at byte off of the file and
	// whose first line is line+1 of the file; first is set for the file's
	// first chunk (a header to skip); bad rows go to onBad.
	decoder(chunk []byte, off int64, line int, first bool, onBad func(*ParseError, []byte), w *chunkWorker) Decoder
	// lines counts the line ends of a chunk as the decoder does.
	lines(chunk []byte) int
	// overLong says how to skip a record longer than the limit that
	// starts with byte c (first: at the file's start): s finds its end;
	// row is false for a header or comment line, skipped silently; msg is
	// the bad row's message and ignore whether bad rows are skipped.
	overLong(c byte, first bool) (s *recordSkip, row bool, msg string, ignore bool)
	// limit is the longest record (MaxRecordBytes).
	limit() int
	// finished takes the working memory of a chunk's decoder that decodes
	// no more into w, for the worker's next chunk's decoder.
	finished(dec Decoder, w *chunkWorker)
}

type chunkResult struct {
	batches []arrow.RecordBatch
	marks   []chunkMark // one per batch
	bad     []badRow
	end     SplitPosition // where the chunk's decoder stopped (Skipped counts the chunk's bad rows)
	limit   int64         // the file offset where the chunk ends
	decoded bool          // end is set: false for a read error alone
	err     error         // after the batches: a bad row, or a read error
}

// chunkMark is where a chunk's decoder stood after one of its batches.
type chunkMark struct {
	pos SplitPosition
	bad int // the chunk's bad rows reported by then
}

type badRow struct {
	err *ParseError
	raw []byte
}

type chunkJob struct {
	data  []byte
	off   int64
	line  int
	first bool
	out   chan chunkResult
}

// parallelChunkBytes is the size of the chunks a file is cut into: large
// enough that a chunk is many batches, small enough that the chunks in
// flight (two per worker) hold little memory. Measured on the benchmark's
// TUMBLE: 1 MiB instead of 4 took the peak RSS from 130 to 82 MiB and
// used a little less CPU (the chunk being decoded stays in the cache).
const parallelChunkBytes = 1 << 20

// newParallelDecoder starts reading r (a regular file, labelled source in
// errors) with workers goroutines; chunkBytes is the chunk size. Bad rows
// go to onBad (may be nil) from the goroutine calling Next.
func newParallelDecoder(r io.Reader, source string, f chunkFormat, workers, chunkBytes int, onBad func(*ParseError, []byte)) *ParallelDecoder {
	return newParallelDecoderAt(r, source, f, workers, chunkBytes, onBad, SplitPosition{})
}

// newParallelDecoderAt is newParallelDecoder continuing a read of the same
// file that stood at p (see SplitPosition): r must be positioned at
// p.Offset. Rows, bad rows, Skipped and line numbers in errors continue as
// if the read had not been interrupted.
func newParallelDecoderAt(r io.Reader, source string, f chunkFormat, workers, chunkBytes int, onBad func(*ParseError, []byte), p SplitPosition) *ParallelDecoder {
	workers = max(1, workers)
	d := &ParallelDecoder{
		results: make(chan chan chunkResult, 2*workers),
		stop:    make(chan struct{}),
		bad:     badRows{onBad: onBad, skipped: p.Skipped},
		pos:     p,
	}
	c := newChunkCutter(d, r, source, f, chunkBytes, p)
	d.cutter = c
	if workers > 1 {
		// Next is the last worker: on two cores the CSV TUMBLE, HOP and
		// SESSION of the benchmark took 0.92 to 0.97 of the wall time, with
		// two goroutines for two Ps instead of three, and the chunks Next
		// decodes folded on the core that decoded them.
		workers--
		d.helper = &chunkWorker{}
	}
	d.wg.Add(workers)
	for range workers {
		go d.decodeChunks(c)
	}
	return d
}

// NewParallelCSVDecoder decodes CSV from r, one of files read at once
// (see NewParallelJSONDecoder), continuing a read that stood at at (the
// zero position starts at the beginning).
func NewParallelCSVDecoder(r io.Reader, source string, schema *arrow.Schema, opts CSVOptions, mem memory.Allocator, batchSize, files int, at SplitPosition) *ParallelDecoder {
	reuse := recycle.New(mem)
	f := newCSVChunks(source, schema, opts, reuse, batchSize)
	f.outMem = outputMem(reuse)
	return newReusingDecoder(r, source, f, reuse, files, opts.OnBadRow, at)
}

// NewParallelJSONDecoder decodes JSON lines from r, one of files read at
// once: with many files each gets fewer workers and smaller chunks, so
// the chunks in flight stay a few MiB. A resumed read starts at at.
func NewParallelJSONDecoder(r io.Reader, source string, schema *arrow.Schema, opts JSONOptions, mem memory.Allocator, batchSize, files int, at SplitPosition) *ParallelDecoder {
	reuse := recycle.New(mem)
	f := &jsonChunks{source: source, schema: schema, opts: opts, mem: reuse, outMem: outputMem(reuse), batchSize: batchSize}
	return newReusingDecoder(r, source, f, reuse, files, opts.OnBadRow, at)
}

// outputMem is the allocator of the buffers a chunk's decoder writes
// every byte of (its batches' fixed-width values). With one P, a reused
// buffer is handed out as it was freed (recycle.Unzeroed): the operator
// that read it last ran on this core, so it is in this core's cache.
// With more, the operator most likely read it on another core, and
// clearing it first takes its cache lines in one streaming pass, where
// the decoder's stores would wait for them one at a time inside its parse
// loop: the benchmark's CSV TUMBLE with two Ps took 0.92 of the CPU and
// 0.93 of the wall time, with one P clearing would cost 1.02.
func outputMem(reuse *recycle.Allocator) memory.Allocator {
	if runtime.GOMAXPROCS(0) > 1 {
		return reuse
	}
	return recycle.Unzeroed(reuse)
}

// newReusingDecoder starts the parallel decoder of one of files read at
// once, whose format allocates from reuse: the batches' buffers are
// reused once released downstream, instead of allocated and collected
// batch after batch, and the values written whole (reserveOutputs) are
// not cleared first.
func newReusingDecoder(r io.Reader, source string, f chunkFormat, reuse *recycle.Allocator, files int, onBad func(*ParseError, []byte), at SplitPosition) *ParallelDecoder {
	d := newParallelDecoderAt(r, source, f, parallelWorkers(files), parallelChunkSize(files), onBad, at)
	d.onClose = reuse.Close
	return d
}

// parallelChunkSize is the chunk size of each of n files read at once.
func parallelChunkSize(n int) int { return max(64<<10, parallelChunkBytes/max(1, n)) }

// skippedRecord is where the read stands after an over-long record, and
// the bytes read after it.
type skippedRecord struct {
	end  SplitPosition
	rest []byte
}

// skipOverLong handles a record longer than the limit at at, of which
// buf[:n] was read: without ignore-parse-errors it queues the bad row as
// the read's error; else it reads on, reusing buf, to the record's end,
// and queues the bad row (none for a header or comment line) as a chunk
// of its own. ok is false when the read is over.
func (d *ParallelDecoder) skipOverLong(r io.Reader, source string, f chunkFormat, buf []byte, n int, eof *bool, first bool, at SplitPosition) (skippedRecord, bool) {
	s, row, msg, ignore := f.overLong(buf[0], first)
	perr := &ParseError{Source: source, Line: at.Line + 1, Msg: msg}
	if row && !ignore {
		d.fail(perr)
		return skippedRecord{}, false
	}
	data := buf[:n]
	for zero := 0; ; {
		k, done := s.scan(data, *eof)
		if done {
			data = data[k:]
			break
		}
		m, err := r.Read(buf)
		data = buf[:m]
		switch {
		case err == io.EOF:
			*eof = true
		case err != nil:
			d.fail(fmt.Errorf("%s: %w", source, err))
			return skippedRecord{}, false
		case m == 0:
			if zero++; zero > 100 {
				d.fail(fmt.Errorf("%s: %w", source, io.ErrNoProgress))
				return skippedRecord{}, false
			}
		}
	}
	end := SplitPosition{Offset: at.Offset + s.n, Line: at.Line + s.lines, Started: true}
	res := chunkResult{end: end, limit: end.Offset, decoded: true}
	if row {
		res.bad = []badRow{{err: perr}}
	}
	out := make(chan chunkResult, 1)
	out <- res
	if !d.queue(out) {
		return skippedRecord{}, false
	}
	return skippedRecord{end: end, rest: data}, true
}

// fail queues a read error after the chunks read so far.
func (d *ParallelDecoder) fail(err error) {
	out := make(chan chunkResult, 1)
	out <- chunkResult{err: err}
	d.queue(out)
}

// queue queues a chunk's result channel for Next, under the cutter's
// lock; false when the decoder is closing. A helping Next cannot wait for
// room in results, as it is the one that makes room: it moves the oldest
// channels queued to ahead instead. No other worker queues meanwhile (it
// holds the lock), so the room it made stays.
func (d *ParallelDecoder) queue(out chan chunkResult) bool {
	if d.helping {
		for len(d.results) == cap(d.results) {
			d.ahead = append(d.ahead, <-d.results)
		}
		d.results <- out
		return true
	}
	select {
	case d.results <- out:
		return true
	case <-d.stop:
		return false
	}
}

// decodeChunks is a worker: it cuts its next chunk and decodes it, until
// the cutter has no more.
func (d *ParallelDecoder) decodeChunks(c *chunkCutter) {
	defer d.wg.Done()
	var w chunkWorker
	for {
		job, ok := c.next(&w)
		if !ok {
			return
		}
		job.out <- decodeChunk(c.f, job, &w)
	}
}

// help cuts and decodes the file's next chunk on Next's goroutine, which
// would otherwise wait for another worker's; false when it did not (see
// chunkCutter.tryNext), or Next decodes no chunks.
func (d *ParallelDecoder) help() bool {
	if d.helper == nil {
		return false
	}
	job, ok := d.cutter.tryNext(d.helper)
	if !ok {
		return false
	}
	job.out <- decodeChunk(d.cutter.f, job, d.helper)
	return true
}

// chunkWorker is the memory a worker keeps from one chunk to its next:
// the buffer its chunks are read into (its batches hold copies of the
// text), and the working slices of its last chunk's decoder. One of each
// per worker is all a worker uses, so no pool or lock is shared.
type chunkWorker struct {
	buf     []byte
	scratch *csvScratch // nil: none yet
}

// decodeChunk decodes one chunk. A panic of the decoder ends the chunk's
// batches with the panic as its error, which stops the read there.
func decodeChunk(f chunkFormat, job chunkJob, w *chunkWorker) (res chunkResult) {
	defer func() {
		if r := recover(); r != nil {
			res.err, res.decoded = pipeline.PanicAsError(r, ""), false
		}
	}()
	onBad := func(e *ParseError, raw []byte) {
		res.bad = append(res.bad, badRow{err: e, raw: bytes.Clone(raw)})
	}
	res.limit = job.off + int64(len(job.data))
	dec := f.decoder(job.data, job.off, job.line, job.first, onBad, w)
	if r, ok := dec.(interface{ releaseOutputs() }); ok {
		defer r.releaseOutputs() // the buffers reserved for a batch that did not come
	}
	for {
		rec, err := dec.Next()
		if rec != nil {
			res.batches = append(res.batches, rec)
			res.marks = append(res.marks, chunkMark{pos: dec.Position(), bad: len(res.bad)})
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				res.err = err
			}
			break
		}
	}
	res.end, res.decoded, res.limit = dec.Position(), true, job.off+int64(len(job.data))
	f.finished(dec, w) // the batches hold copies of the text: w.buf is free too
	return res
}

// Next returns the next batch in file order, or io.EOF after the last.
// The bad rows before a batch are reported just before it is returned.
func (d *ParallelDecoder) Next() (arrow.RecordBatch, error) {
	for {
		if c := d.cur; c != nil {
			if d.next < len(c.batches) {
				i := d.next
				d.next++
				d.report(c.marks[i].bad)
				d.at(c.marks[i].pos)
				rec := c.batches[i]
				c.batches[i] = nil
				return rec, nil
			}
			// The chunk's bad rows after its last batch, and how it ends.
			d.report(len(c.bad))
			if c.decoded {
				d.at(c.end)
			}
			if c.err != nil {
				d.err = c.err
			}
			d.cur = nil
		}
		if d.err != nil {
			return nil, d.err
		}
		out, ok := d.nextResult()
		if !ok {
			d.err = io.EOF
			continue
		}
		res := d.wait(out)
		d.cur, d.next, d.reported = &res, 0, 0
	}
}

// nextResult takes the next chunk's result channel, in file order; false
// after the last. While none is queued, Next helps.
func (d *ParallelDecoder) nextResult() (chan chunkResult, bool) {
	for {
		if len(d.ahead) > 0 {
			out := d.ahead[0]
			d.ahead = d.ahead[1:]
			return out, true
		}
		select {
		case out, ok := <-d.results:
			return out, ok
		default:
		}
		if !d.help() {
			out, ok := <-d.results
			return out, ok
		}
	}
}

// wait returns a chunk's result once decoded; until then Next helps.
func (d *ParallelDecoder) wait(out chan chunkResult) chunkResult {
	for {
		select {
		case res := <-out:
			return res
		default:
		}
		if !d.help() {
			return <-out
		}
	}
}

// report reports the current chunk's bad rows up to its n-th.
func (d *ParallelDecoder) report(n int) {
	for _, b := range d.cur.bad[d.reported:n] {
		d.bad.skip(b.err, b.raw)
	}
	d.reported = n
}

// at sets the position to p, a position of the current chunk's decoder.
func (d *ParallelDecoder) at(p SplitPosition) {
	p.Skipped = d.bad.skipped
	p.ChunkEnd = d.cur.limit
	d.pos = p
}

// Skipped counts the bad rows reported so far: those before the last batch
// handed out, or up to the end of the file after io.EOF.
func (d *ParallelDecoder) Skipped() int64 { return d.bad.skipped }

// Position is where the read stands after the last Next (see
// SplitPosition): past the last batch handed out and the bad rows reported.
func (d *ParallelDecoder) Position() SplitPosition { return d.pos }

// Close stops the reader and the workers and releases what was decoded
// and not handed out. The caller closes the file after.
func (d *ParallelDecoder) Close() {
	if d.closed {
		return
	}
	d.closed = true
	close(d.stop)
	if d.cur != nil {
		for _, rec := range d.cur.batches[d.next:] {
			rec.Release()
		}
		d.cur = nil
	}
	// The reader stops at its next send and closes results; every queued
	// chunk gets its result, decoded or not.
	for _, out := range d.ahead {
		discard(out)
	}
	d.ahead = nil
	for out := range d.results {
		discard(out)
	}
	d.wg.Wait()
	if d.onClose != nil {
		d.onClose()
	}
}

// discard waits for a chunk's result and releases its batches.
func discard(out chan chunkResult) {
	res := <-out
	for _, rec := range res.batches {
		rec.Release()
	}
}

// parallelWorkers is how many goroutines decode each of n splits read at once.
func parallelWorkers(n int) int { return max(1, runtime.GOMAXPROCS(0)/max(1, n)) }
