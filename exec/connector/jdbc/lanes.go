package jdbc

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/keyhash"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/windowop"
)

// lanes writes an upsert table over several connections
// ('sink.parallelism'), as Flink runs a sink's parallel instances: each
// row goes to the connection its key hashes to, so a key's changes stay
// in order on one connection, and the connections encode and flush their
// rows at the same time. PostgreSQL runs a statement on one core, so one
// connection's flushes are bounded by it; two connections on two cores
// apply about 1.6 times the rows (docs/performance.md, "PostgreSQL").
type lanes struct {
	lanes   []*sinkWriter
	keyCols []int    // the batch columns of the key, reused
	hashes  []uint64 // of each row's key, reused
	sel     [][]int32
}

func newLanes(ws []*sinkWriter) *lanes {
	return &lanes{lanes: ws, keyCols: make([]int, len(ws[0].s.key)), sel: make([][]int32, len(ws))}
}

func (l *lanes) WriteBatch(rec arrow.RecordBatch) error {
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	s := l.lanes[0].s
	shift := 0
	if windowop.IsRowKindField(rec.Schema().Field(0)) {
		shift = 1
	}
	for i, name := range s.key {
		k := s.table.Column(name)
		if s.order != nil {
			k = s.order[k]
		}
		l.keyCols[i] = k + shift
	}
	if cap(l.hashes) < n {
		l.hashes = make([]uint64, n)
	}
	l.hashes = l.hashes[:n]
	if err := keyhash.Rows(rec, l.keyCols, l.hashes); err != nil {
		return s.wrap("choosing a connection", err)
	}
	for i := range l.sel {
		l.sel[i] = l.sel[i][:0]
	}
	for i, h := range l.hashes {
		lane := h % uint64(len(l.lanes))
		l.sel[lane] = append(l.sel[lane], int32(i))
	}
	return l.each(func(i int, w *sinkWriter) error { return w.write(rec, l.sel[i]) })
}

// each runs f on every lane at once and returns the first lane's error.
func (l *lanes) each(f func(i int, w *sinkWriter) error) error {
	errs := make([]error, len(l.lanes))
	var wg sync.WaitGroup
	for i, w := range l.lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer pipeline.CatchPanic(&errs[i])
			errs[i] = f(i, w)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (l *lanes) Close() error {
	return l.each(func(_ int, w *sinkWriter) error { return w.Close() })
}

// committingLanes are the lanes of a run with checkpoints: each
// checkpoint flushes every lane. An upsert table has no transaction to
// prepare or commit.
type committingLanes struct{ *lanes }

var _ exec.CommittingWriter = committingLanes{}

func (c committingLanes) PreCommit() error {
	return c.each(func(_ int, w *sinkWriter) error { return (&committingWriter{sinkWriter: w}).PreCommit() })
}

func (c committingLanes) State(*checkpoint.Encoder) {}

func (c committingLanes) Commit() error { return nil }
