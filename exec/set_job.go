package exec

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/internal/startgc"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// SetJob is a statement set: several jobs run as one, as Flink's
// StatementSet. Jobs that read the same scan share one read of it: each
// step of the reader (a batch, a watermark, a split's end) goes to every
// one of their pipelines in turn, the batch retained for each, so each
// job sees exactly the input it would see alone. Different scans run
// concurrently, each on its own goroutine.
//
//	            ┌─▶ [computed] ─▶ assigner ─▶ window ─▶ project ─▶ sink 1
//	source ─────┤
//	            └─▶ [computed] ─▶ assigner ─▶ window ─▶ project ─▶ sink 2
type SetJob struct {
	Jobs []*Job
	// Scans[i] numbers the scan Jobs[i] reads (its innermost source), from
	// 0: jobs with the same number read one reader, opened from the first
	// one's source.
	Scans []int
	// Progress, if set, is called as Job.Progress is, for a set of one scan.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// sharedRead is the reader a job of a statement set reads instead of
// opening its source; first marks the one pipeline that writes the rows
// its watermark assigner refuses to the bad-rows file, so a bad row is
// written once.
type sharedRead struct {
	reader BatchReader
	first  bool
}

// sharedReader is the shared reader as a pipeline other than the first
// sees it: not a BadRowsReader.
type sharedReader struct{ BatchReader }

// Run runs every job to the end of its input, job i writing to ws[i]. The
// stats count each scan's rows and bad rows once, and the late rows and
// result rows of every job. The first error stops every job.
func (s *SetJob) Run(ctx context.Context, mem memory.Allocator, ws []writer.ResultWriter) (stats Stats, err error) {
	defer reportEnd(s.Progress, &err) // after the panic is an error
	defer pipeline.CatchPanic(&err)
	start := time.Now()
	var scans [][]int
	for i, n := range s.Scans {
		for len(scans) <= n {
			scans = append(scans, nil)
		}
		scans[n] = append(scans[n], i)
	}
	if len(scans) > 1 {
		// sinks of different scans may write to one place (the print
		// connector's standard output): one at a time
		var mu sync.Mutex
		locked := make([]writer.ResultWriter, len(ws))
		for i, w := range ws {
			locked[i] = &lockedWriter{mu: &mu, w: w}
		}
		ws = locked
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]Stats, len(scans))
	errs := make([]error, len(scans))
	var wg sync.WaitGroup
	for n, idx := range scans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if errs[n] != nil {
					cancel() // one failing scan stops the others
				}
			}()
			defer pipeline.CatchPanic(&errs[n])
			jobs := make([]*Job, len(idx))
			out := make([]writer.ResultWriter, len(idx))
			for k, i := range idx {
				jobs[k], out[k] = s.Jobs[i], ws[i]
			}
			var progress func(Progress)
			if len(scans) == 1 {
				progress = s.Progress
			}
			results[n], errs[n] = runShared(ctx, mem, jobs, out, progress, s.ProgressEvery, start)
		}()
	}
	wg.Wait()
	stats.Watermark = rowtime.MinWatermark
	for n, r := range results {
		stats.RowsRead += r.RowsRead
		stats.BadRowsSkipped += r.BadRowsSkipped
		stats.LateRowsDropped += r.LateRowsDropped
		stats.LateForWindow += r.LateForWindow
		stats.NoWindowRows += r.NoWindowRows
		stats.UnfilledCountRows += r.UnfilledCountRows
		stats.ResultRows += r.ResultRows
		stats.FilesRotated += r.FilesRotated
		stats.FilesTruncated += r.FilesTruncated
		stats.StateSpilled += r.StateSpilled
		stats.LookupHits += r.LookupHits
		stats.LookupMisses += r.LookupMisses
		stats.Lateness.Merge(&r.Lateness)
		stats.Watermark = max(stats.Watermark, r.Watermark)
		// the error that stopped the others, not theirs
		if e := errs[n]; e != nil && (err == nil || errors.Is(err, context.Canceled) && !errors.Is(e, context.Canceled)) {
			err = e
		}
	}
	stats.Elapsed = time.Since(start)
	return stats, err
}

// runShared runs jobs over one read of the first one's innermost source.
func runShared(ctx context.Context, mem memory.Allocator, jobs []*Job, ws []writer.ResultWriter, progress func(Progress), every time.Duration, start time.Time) (Stats, error) {
	startgc.Restore() // as Job.run does
	var stats Stats
	inner := jobs[0]
	for inner.Input != nil {
		inner = inner.Input
	}
	if inner.Union != nil {
		// a union reads its queries' sources itself, shared with no other
		// INSERT (planner/stmtset gives it a scan of its own)
		return jobs[0].run(ctx, mem, ws[0])
	}
	out := recycle.NewRun(mem) // as Job.run's: closed after the reader and the chains
	defer out.Close()
	mem = out
	reader, err := inner.Source.Open(mem, nil)
	if err != nil {
		return stats, err
	}
	defer reader.Close()
	sinks := make([]*WriterSink, len(jobs))
	chains := make([]*chain, 0, len(jobs))
	defer func() {
		for _, c := range chains {
			c.close()
		}
	}()
	// the bad rows of event time are written by the first pipeline that
	// has event time
	writes := 0
	for i, j := range jobs {
		for j.Input != nil {
			j = j.Input
		}
		if j.RowtimeIndex >= 0 {
			writes = i
			break
		}
	}
	for i, j := range jobs {
		sinks[i] = NewWriterSink(ws[i])
		c, err := j.buildOn(mem, sinks[i], nil, &sharedRead{reader: reader, first: i == writes})
		if err != nil {
			return stats, err
		}
		chains = append(chains, c)
	}
	var afterBatch func()
	if progress != nil {
		if every <= 0 {
			every = 250 * time.Millisecond
		}
		last := time.Now()
		afterBatch = func() {
			if now := time.Now(); now.Sub(last) >= every {
				last = now
				pr := chains[0].progress(start, nil, nil, nil)
				for _, s := range sinks {
					pr.ResultRows += s.Rows()
				}
				progress(pr)
			}
		}
	}
	err = driveShared(ctx, reader, chains, afterBatch)

	// A source's rows and bad rows count once: as the pipeline that
	// skipped the most rows after decoding saw them (pipelines differ only
	// in the computed columns they read).
	src := reader.Stats()
	rows, skipped := src.Rows, int64(0)
	for i, c := range chains {
		r, s := src.Rows, int64(0)
		if c.computed != nil {
			r, s = c.computed.Passed(), c.computed.Skipped()
		}
		if c.assigner != nil {
			s += c.assigner.FutureSkipped()
			r -= c.assigner.FutureSkipped()
		}
		if i == 0 || s > skipped {
			rows, skipped = r, s
		}
	}
	stats = Stats{
		RowsRead:       rows,
		BadRowsSkipped: src.Skipped + skipped,
		Watermark:      rowtime.MinWatermark,
		FilesRotated:   src.Rotated,
		FilesTruncated: src.Truncated,
	}
	for i, c := range chains {
		stats.ResultRows += sinks[i].Rows()
		for _, w := range c.windows {
			st := w.stats()
			stats.LateRowsDropped += st.LateRowsDropped
			stats.LateForWindow += st.LateForWindow
			stats.NoWindowRows += st.NoWindowRows + st.UnfilledCountRows
			stats.UnfilledCountRows += st.UnfilledCountRows
			stats.LookupHits += st.LookupHits
			stats.LookupMisses += st.LookupMisses
			stats.Lateness.Merge(&st.Lateness)
		}
		if c.assigner != nil {
			stats.Watermark = max(stats.Watermark, c.assigner.Watermark())
		}
	}
	return stats, err
}

// driveShared is drive for the pipelines of one shared read: each step of
// r goes to every pipeline, in order, before the next step is read.
func driveShared(ctx context.Context, r BatchReader, chains []*chain, afterBatch func()) error {
	f, following := r.(Follower)
	if following {
		f.Follow(ctx)
	}
	for {
		if err := ctx.Err(); err != nil && !following {
			return errStopped{err}
		}
		b, err := r.Next()
		if err := fanOut(b, err, r, chains); err != nil {
			if err == errEnded {
				return nil
			}
			return err
		}
		if afterBatch != nil && b.Record != nil {
			afterBatch()
		}
	}
}

// fanOut takes the step b (err) through every pipeline. A batch is
// retained for each (takeStep releases it) and released once after.
func fanOut(b SplitBatch, err error, r BatchReader, chains []*chain) error {
	if rec := b.Record; rec != nil && err == nil {
		defer rec.Release()
		for _, c := range chains {
			rec.Retain()
			if err := takeStep(b, nil, r, c.first, c.assigner, nil); err != nil {
				return err
			}
		}
		return nil
	}
	ended := false
	for _, c := range chains {
		switch e := takeStep(b, err, r, c.first, c.assigner, nil); {
		case e == errEnded:
			ended = true
		case e != nil:
			return e
		}
	}
	if ended {
		return errEnded
	}
	return nil
}

// lockedWriter writes through w under mu, shared by the writers of a
// statement set whose scans run concurrently.
type lockedWriter struct {
	mu *sync.Mutex
	w  writer.ResultWriter
}

func (l *lockedWriter) WriteBatch(rec arrow.RecordBatch) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.WriteBatch(rec)
}

func (l *lockedWriter) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Close()
}
