package exec

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// hashGenerator reads every row of g as text and hashes it: the pinned
// hashes below are the rows the generators made before they were
// rewritten for speed, so a faster generator must make the same rows.
func hashGenerator(t *testing.T, g BatchMaker, schema *arrow.Schema, size int) string {
	t.Helper()
	rows := drainGenerator(t, g, schema, size)
	h := sha256.Sum256([]byte(strings.Join(rows, "\n")))
	return hex.EncodeToString(h[:8])
}

func TestGeneratorsMakeThePinnedRows(t *testing.T) {
	for table, want := range map[string]string{"person": "f073585cc6fd060f", "auction": "b652ca4b1cb6f8f3", "bid": "26b82aa5997aa9aa"} {
		g, schema := newNexmark(table, 20000, 42)
		got := hashGenerator(t, g, schema, 1000)
		if got != want {
			t.Errorf("nexmark %s: hash %s, want %s", table, got, want)
		}
	}
	if got, want := hashGenerator(t, newDatagen(7, 20000), datagenSchema, 1000), "e177fc645f41b934"; got != want {
		t.Errorf("datagen: hash %s, want %s", got, want)
	}
}

// drainRows reads a generator to its end and counts its rows.
// benchReader reads everything open's reader gives, once per iteration,
// and reports rows per second of wall and of CPU time.
func benchReader(b *testing.B, open func() (BatchReader, error)) {
	b.ReportAllocs()
	var rows int64
	cpu := cpuTime()
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

func drainRows(b *testing.B, r BatchReader) int64 {
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

// cpuTime is the process's user and system CPU time so far (the
// collector's threads included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRates reports rows per second of wall time and per second of CPU
// time since cpu: on a shared machine the CPU rate is the steadier one.
func reportRates(b *testing.B, rows int64, cpu time.Duration) {
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	if d := cpuTime() - cpu; cpu > 0 && d > 0 {
		b.ReportMetric(float64(rows)/d.Seconds(), "rows/CPU-s")
	}
}

// BenchmarkNexmarkBid is the bid table's reader alone: all 7 columns of
// 1M events (920,000 bids) per iteration.
func BenchmarkNexmarkBid(b *testing.B) {
	g, schema := newNexmark("bid", 1_000_000, 0)
	benchReader(b, func() (BatchReader, error) { return g.Open(memory.NewGoAllocator(), schema, DefaultBatchSize) })
}

// TestNexmarkPriceIsMathPows checks the fast price against the formula it
// replaces, over many draws, and the fast power's error against the margin
// it is trusted to.
func TestNexmarkPriceIsMathPows(t *testing.T) {
	r, ref := newPCG(3, 4), newPCG(3, 4)
	worst := 0.0
	n := 2_000_000
	if testing.Short() {
		n = 200_000
	}
	for range n {
		got := nexmarkPrice(&r)
		y := ref.float64() * 6
		want := int64(math.Round(math.Pow(10, y) * 100))
		if got != want {
			t.Fatalf("price at 10^%v: %d, want %d", y, got, want)
		}
		worst = max(worst, math.Abs(nexmarkPow10(y)/math.Pow(10, y)-1))
	}
	if worst > nexmarkPriceMargin/100 {
		t.Fatalf("the fast power is off by %g, beyond a hundredth of the margin", worst)
	}
	t.Logf("worst relative error %g", worst)
	// The ends and the table's knots.
	for _, y := range []float64{0, 6, math.Nextafter(6, 0), 1.0 / 4096, 255.0 / 4096, 1.5, 3} {
		if got, want := nexmarkPow10(y), math.Pow(10, y); math.Abs(got/want-1) > nexmarkPriceMargin/100 {
			t.Errorf("10^%v: %v, want %v", y, got, want)
		}
	}
}

// TestPCGIsMathRands checks the hand copy of math/rand/v2's PCG and draws.
func TestPCGIsMathRands(t *testing.T) {
	if math.MaxInt == math.MaxInt32 {
		t.Skip("rand.Rand draws small bounds differently on 32-bit platforms")
	}
	p := newPCG(7, 9)
	r := rand.New(rand.NewPCG(7, 9))
	for i := range 100_000 {
		switch i % 5 {
		case 0:
			require.Equal(t, r.Uint64(), p.uint64())
		case 1:
			require.Equal(t, r.Float64(), p.float64())
		case 2:
			require.Equal(t, r.IntN(26), p.intn(26))
		case 3:
			n := uint64(i)*0x9e3779b97f4a7c15 | 1
			require.Equal(t, r.Uint64N(n), p.uint64n(n))
		default:
			require.Equal(t, r.Int64N(1<<20), int64(p.uint64n(1<<20)))
		}
	}
	// uint64n's rejection: with n = 2^63 + 1 half the draws are rejected.
	for range 1000 {
		require.Equal(t, r.Uint64N(1<<63+1), p.uint64n(1<<63+1))
	}
	var v uint64
	q := p
	q, v = q.step()
	require.Equal(t, p.uint64(), v)
	require.Equal(t, p, q)
}
