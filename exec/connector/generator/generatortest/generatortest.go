package generatortest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wsql/wsql/internal/cputime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
)

// EachBatch reads g's one split in batches of at most size rows, through
// a checked allocator, and calls fn with each batch's record (released
// after it); it checks the split's one end, that the rows the reader
// counts are the rows read (and those it stepped over), and that no
// memory is left.
func EachBatch(t *testing.T, g exec.BatchMaker, schema *arrow.Schema, size int, fn func(rec arrow.RecordBatch)) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := (&exec.MakerSource{Maker: g, SourceSpec: exec.SourceSpec{Schema: schema, BatchSize: size}}).Open(mem, nil)
	require.NoError(t, err)
	defer r.Close()
	require.Equal(t, 1, r.NumSplits())
	ended := false
	var rows int64
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if b.End {
			require.False(t, ended, "one end per split")
			ended = true
			continue
		}
		require.LessOrEqual(t, b.Record.NumRows(), int64(size))
		rows += b.Record.NumRows()
		fn(b.Record)
		b.Record.Release()
	}
	require.True(t, ended)
	st := r.Stats()
	require.Equal(t, rows, st.Rows-st.Stepped)
}

// Drain reads every row of g as text, one string per row (EachBatch).
func Drain(t *testing.T, g exec.BatchMaker, schema *arrow.Schema, size int) []string {
	t.Helper()
	var rows []string
	EachBatch(t, g, schema, size, func(rec arrow.RecordBatch) {
		for i := range int(rec.NumRows()) {
			var cols []string
			for _, c := range rec.Columns() {
				cols = append(cols, c.ValueStr(i))
			}
			rows = append(rows, strings.Join(cols, "|"))
		}
	})
	return rows
}

// Hash reads every row of g as text and hashes it: the tests pin the
// hashes of the rows the generators made before they were rewritten for
// speed, so a faster generator must make the same rows.
func Hash(t *testing.T, g exec.BatchMaker, schema *arrow.Schema, size int) string {
	t.Helper()
	rows := Drain(t, g, schema, size)
	h := sha256.Sum256([]byte(strings.Join(rows, "\n")))
	return hex.EncodeToString(h[:8])
}

// ResumeCase is a generator whose read is interrupted and resumed.
type ResumeCase struct {
	Name   string
	Maker  exec.BatchMaker
	Schema *arrow.Schema
	Rows   int  // rows to compare of an unbounded source (at least 3 batches); a bounded one is read to its end
	Big    bool // too many rows to read a row at a time
}

// ReadSteps takes up to steps steps of r (batches and the split's end),
// appending each row as text; it reports whether r reached io.EOF.
func ReadSteps(t *testing.T, r exec.BatchReader, steps int, rows []string) ([]string, bool) {
	t.Helper()
	for range steps {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return rows, true
		}
		require.NoError(t, err)
		if b.End {
			continue
		}
		for i := range int(b.Record.NumRows()) {
			var cols []string
			for _, c := range b.Record.Columns() {
				cols = append(cols, c.ValueStr(i))
			}
			rows = append(rows, strings.Join(cols, "|"))
		}
		b.Record.Release()
	}
	return rows, false
}

// OpenAt opens c's read, resumed from the state at when it is not nil.
func OpenAt(t *testing.T, c ResumeCase, mem memory.Allocator, size int, at []byte) (exec.BatchReader, error) {
	t.Helper()
	var d *checkpoint.Decoder
	if at != nil {
		d = checkpoint.NewDecoder(at)
	}
	return (&exec.MakerSource{Maker: c.Maker, SourceSpec: exec.SourceSpec{Schema: c.Schema, BatchSize: size}}).Open(mem, d)
}

// SaveAfter reads steps steps of a fresh read and returns its rows and
// its saved state.
func SaveAfter(t *testing.T, c ResumeCase, mem memory.Allocator, size, steps int) ([]string, []byte) {
	t.Helper()
	r, err := OpenAt(t, c, mem, size, nil)
	require.NoError(t, err)
	defer r.Close()
	rows, _ := ReadSteps(t, r, steps, nil)
	var e checkpoint.Encoder
	require.NoError(t, r.(exec.StateReader).SaveState(&e))
	return rows, e.Data()
}

// RequireResumes checks that a read cut after k steps, for several k, and
// resumed from its saved state delivers the rows of an uninterrupted read.
func RequireResumes(t *testing.T, c ResumeCase, size int) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	steps := math.MaxInt // a bounded source: to its end
	if c.Rows > 0 {
		steps = max((c.Rows+size-1)/size, 3)
	}
	r, err := OpenAt(t, c, mem, size, nil)
	require.NoError(t, err)
	want, eof := ReadSteps(t, r, steps, nil)
	require.NoError(t, r.Close())
	if c.Rows > 0 {
		require.False(t, eof)
		steps = (len(want) + size - 1) / size
	} else {
		require.True(t, eof)
		steps = (len(want)+size-1)/size + 1 // the batches and the end
	}
	if !strings.HasSuffix(c.Name, "no rows") {
		require.NotEmpty(t, want)
	}
	for _, k := range []int{0, 1, 2, steps / 2, steps - 1, steps} {
		if k > steps {
			continue
		}
		before, state := SaveAfter(t, c, mem, size, k)
		require.LessOrEqual(t, len(state), 16+len(c.Schema.Fields())*32, "state size is O(columns)")
		r, err := OpenAt(t, c, mem, size, state)
		require.NoError(t, err, "resume after %d steps", k)
		more := steps - k // an unbounded read: to the rows compared
		if c.Rows == 0 {
			more++ // a bounded one: to its EOF
		}
		got, eof := ReadSteps(t, r, more, before)
		require.Equal(t, c.Rows == 0, eof, "resume after %d steps", k)
		require.Equal(t, want, got, "%s at batch size %d, resumed after %d steps", c.Name, size, k)
		st := r.Stats()
		require.Equal(t, int64(len(want)), st.Rows-st.Stepped)
		require.NoError(t, r.Close())
		// The resumed read checkpoints as the uninterrupted one.
		if k > 0 && k < steps {
			r, err := OpenAt(t, c, mem, size, state)
			require.NoError(t, err)
			var e checkpoint.Encoder
			require.NoError(t, r.(exec.StateReader).SaveState(&e))
			require.Equal(t, state, e.Data())
			require.NoError(t, r.Close())
		}
	}
}

// RunResumeCases runs RequireResumes over each case at batch sizes 1
// (but for big cases), 7 and 4096, in parallel subtests.
func RunResumeCases(t *testing.T, cases []ResumeCase) {
	for _, c := range cases {
		for _, size := range []int{1, 7, 4096} {
			if c.Big && size == 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", c.Name, size), func(t *testing.T) {
				t.Parallel()
				RequireResumes(t, c, size)
			})
		}
	}
}

// RequireRefused checks that c refuses the saved state with
// checkpoint.ErrCorrupt (and msg, when not empty), opening no reader.
func RequireRefused(t *testing.T, c ResumeCase, mem memory.Allocator, state []byte, msg string) {
	t.Helper()
	r, err := OpenAt(t, c, mem, 7, state)
	require.ErrorIs(t, err, checkpoint.ErrCorrupt, "%s: %x", c.Name, state)
	if msg != "" {
		require.ErrorContains(t, err, msg)
	}
	require.Nil(t, r)
}

// RequireDamageRefused checks that c refuses every truncation of a state
// it saved, and one with a byte left over; and that a state with any byte
// flipped is refused or resumed, never a panic.
func RequireDamageRefused(t *testing.T, c ResumeCase, mem memory.Allocator) {
	t.Helper()
	_, state := SaveAfter(t, c, mem, 7, 3)
	for n := range len(state) {
		RequireRefused(t, c, mem, state[:n], "")
	}
	RequireRefused(t, c, mem, append(state[:len(state):len(state)], 0), "left over")
	for i := range state {
		bad := append([]byte(nil), state...)
		bad[i] ^= 0x41
		if r, err := OpenAt(t, c, mem, 7, bad); err == nil {
			_, _ = ReadSteps(t, r, 2, nil)
			require.NoError(t, r.Close())
		} else {
			require.ErrorIs(t, err, checkpoint.ErrCorrupt)
		}
	}
}

// State encodes a generator's state as its reader saves it: the kind,
// the rows delivered, whether the end was reported, then the filler's.
func State(kind string, rows int64, ended bool, rest func(e *checkpoint.Encoder)) []byte {
	var e checkpoint.Encoder
	e.String(kind)
	e.Int(rows)
	e.Bool(ended)
	rest(&e)
	return e.Data()
}

// Bench reads everything open's reader gives, once per iteration, and
// reports rows per second of wall and of CPU time.
func Bench(b *testing.B, open func() (exec.BatchReader, error)) {
	b.ReportAllocs()
	var rows int64
	cpu := cputime.Process()
	for b.Loop() {
		r, err := open()
		if err != nil {
			b.Fatal(err)
		}
		rows += drainRows(b, r)
		r.Close()
	}
	reportRates(b, rows, cpu)
}

// drainRows reads a generator to its end and counts its rows.
func drainRows(b *testing.B, r exec.BatchReader) int64 {
	var n int64
	for {
		sb, err := r.Next()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		if sb.Record != nil {
			n += sb.Record.NumRows()
			sb.Record.Release()
		}
	}
}

// reportRates reports rows per second of wall time and per second of CPU
// time since cpu: on a shared machine the CPU rate is the steadier one.
func reportRates(b *testing.B, rows int64, cpu time.Duration) {
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	if d := cputime.Process() - cpu; cpu > 0 && d > 0 {
		b.ReportMetric(float64(rows)/d.Seconds(), "rows/CPU-s")
	}
}
