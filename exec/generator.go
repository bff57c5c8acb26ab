package exec

import (
	"io"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
)

// columnFiller makes the columns of the rows [from, from+n) of a
// generator: cols[i] is set to a new array of schema field i, which the
// reader releases once the batch holds it.
type columnFiller interface {
	fill(mem memory.Allocator, cols []arrow.Array, from int64, n int)
	// kind names the generator in its checkpointed state.
	kind() string
	// saveState writes the generators' state once rows have been made,
	// O(columns) in size; restoreState reads it back into a fresh filler
	// of the same options (failing d when it does not fit them).
	saveState(e *checkpoint.Encoder)
	restoreState(d *checkpoint.Decoder, rows int64)
}

// generatorReader is the BatchReader of a generator: one split of total
// rows (or unbounded), cut into batches, optionally paced.
type generatorReader struct {
	filler columnFiller
	mem    memory.Allocator
	schema *arrow.Schema
	cols   []arrow.Array // scratch of Next; nil once closed
	size   int
	total  int64 // rows in all; -1 when unbounded
	rows   int64
	// rate, when positive, paces the read at that many rows per second of
	// wall time (pace), from the row the read starts at. Batches then hold
	// at most a tenth of a second's rows, so a paced read never sleeps
	// long between batches.
	rate  float64
	pace  *pacer // nil when not paced
	ended bool   // the split's end was reported
}

func newGeneratorReader(mem memory.Allocator, schema *arrow.Schema, size int, total int64, rate float64, f columnFiller) *generatorReader {
	if size <= 0 {
		size = DefaultBatchSize
	}
	r := &generatorReader{filler: f, mem: mem, schema: schema, cols: make([]arrow.Array, schema.NumFields()),
		size: size, total: total, rate: rate}
	if rate > 0 {
		r.pace = newPacer(rate)
	}
	return r
}

func (r *generatorReader) Next() (SplitBatch, error) {
	if r.ended || r.cols == nil {
		return SplitBatch{}, io.EOF
	}
	n := int64(r.size)
	if r.total >= 0 && r.total-r.rows < n {
		n = r.total - r.rows
	}
	if n <= 0 {
		r.ended = true
		return SplitBatch{End: true}, nil
	}
	if r.pace != nil {
		n = min(n, max(1, int64(r.rate/10)))
		r.pace.wait(r.rows)
	}
	r.filler.fill(r.mem, r.cols, r.rows, int(n))
	rec := array.NewRecordBatch(r.schema, r.cols, n)
	for i, c := range r.cols {
		c.Release()
		r.cols[i] = nil
	}
	r.rows += n
	return SplitBatch{Record: rec}, nil
}

func (r *generatorReader) NumSplits() int { return 1 }

func (r *generatorReader) Stats() SourceStats { return SourceStats{Rows: r.rows} }

func (r *generatorReader) Close() error {
	r.cols = nil
	return nil
}

// saveState records the read's position between two batches: the rows
// delivered, whether the end was reported, and the filler's generators.
// Pacing is not recorded: a resumed read paces from the row it resumes
// at, starting when it reads it (see pacer).
func (r *generatorReader) SaveState(e *checkpoint.Encoder) error {
	e.String(r.filler.kind())
	e.Int(r.rows)
	e.Bool(r.ended)
	r.filler.saveState(e)
	return nil
}

// restoreState continues a fresh reader from what saveState wrote; the
// whole of d must be its state.
func (r *generatorReader) restoreState(d *checkpoint.Decoder) error {
	if k := d.String(); d.Err() == nil && k != r.filler.kind() {
		d.Fail("the state of a %q generator given to %q", k, r.filler.kind())
	}
	rows := d.Int()
	ended := d.Bool()
	switch {
	case d.Err() != nil:
	case rows < 0:
		d.Fail("generator at row %d", rows)
	case r.total >= 0 && rows > r.total:
		d.Fail("generator at row %d of %d", rows, r.total)
	case ended && rows != r.total:
		d.Fail("generator ended at row %d of %d", rows, r.total)
	}
	if d.Err() == nil {
		r.filler.restoreState(d, rows)
	}
	if err := d.Finish(); err != nil {
		return err
	}
	r.rows, r.ended = rows, ended
	return nil
}

var (
	_ BatchReader = (*generatorReader)(nil)
	_ StateReader = (*generatorReader)(nil)
)

// The generators write each column straight into the buffers of its
// Arrow array (expr.NewValues, expr.NewArray of expr_arrays.go), a column at a time,
// without a validity bitmap: through builders, a call per value and its
// validity bit cost more than making the value.

// stringColumn builds one batch's STRING column straight into its Arrow
// buffers: the offsets (the batch's row count is known) and the bytes,
// appended to a buffer sized from the bytes per row of the batch before.
// A batch that outgrows it continues in Go memory and is copied once at
// the end. (Building the batch in a scratch slice and copying it out was
// 14% of the Nexmark bid generator's time.)
type stringColumn struct {
	data    []byte  // the bytes so far, over dataBuf's memory until it outgrows it
	offs    []int32 // over offBuf: offs[i+1] is the end of row i
	rows    int
	dataBuf *memory.Buffer
	offBuf  *memory.Buffer
	perRow  int // bytes per row to reserve for the next batch
}

// start begins a batch of n rows.
func (c *stringColumn) start(mem memory.Allocator, n int) {
	c.offBuf, c.offs = expr.NewValues[int32](mem, n+1)
	c.offs[0] = 0
	c.rows = 0
	c.dataBuf = memory.NewResizableBuffer(mem)
	c.dataBuf.Reserve(n*c.perRow + n/8 + 64)
	c.data = c.dataBuf.Buf()[:0]
}

// end closes the current row.
func (c *stringColumn) end() {
	c.rows++
	c.offs[c.rows] = int32(len(c.data))
}

// array makes the column of the rows built since start.
func (c *stringColumn) array(mem memory.Allocator) arrow.Array {
	if unsafe.SliceData(c.data) == unsafe.SliceData(c.dataBuf.Buf()) {
		c.dataBuf.ResizeNoShrink(len(c.data))
	} else {
		c.dataBuf.Release()
		c.dataBuf = memory.NewResizableBuffer(mem)
		c.dataBuf.Resize(len(c.data))
		copy(c.dataBuf.Bytes(), c.data)
	}
	if c.rows > 0 {
		c.perRow = (len(c.data) + c.rows - 1) / c.rows
	}
	a := expr.NewArray(arrow.BinaryTypes.String, c.rows, nil, 0, c.offBuf, c.dataBuf)
	c.data, c.offs, c.dataBuf, c.offBuf = nil, nil, nil, nil
	return a
}

// pcg is math/rand/v2's PCG with the draws of its Rand (Uint64, Float64,
// Uint64N/Int64N/IntN as on 64-bit platforms): the same numbers from the
// same seed, as a value whose methods inline. Through rand.Rand every draw
// was an interface call that kept the state in memory; this hand copy made
// the Nexmark bid generator about N times faster.
type pcg struct{ hi, lo uint64 }

// newPCG is rand.NewPCG(seed1, seed2).
func newPCG(seed1, seed2 uint64) pcg { return pcg{hi: seed1, lo: seed2} }

// The constants of rand.PCG: its 128-bit multiplier and increment, and
// the multiplier of its DXSM output.
const (
	pcgMulHi    = 2549297995355413924
	pcgMulLo    = 4865540595714422341
	pcgIncHi    = 6364136223846793005
	pcgIncLo    = 1442695040888963407
	pcgCheapMul = 0xda942042e4dd58b5
)

// uint64 is (*rand.PCG).Uint64: a 128-bit LCG step and the DXSM output.
func (p *pcg) uint64() uint64 {
	hi, lo := bits.Mul64(p.lo, pcgMulLo)
	hi += p.hi*pcgMulLo + p.lo*pcgMulHi
	lo, c := bits.Add64(lo, pcgIncLo, 0)
	hi, _ = bits.Add64(hi, pcgIncHi, c)
	p.lo, p.hi = lo, hi
	hi ^= hi >> 32
	hi *= pcgCheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// step is uint64 by value: the state after p, and the draw. A loop that
// keeps its generator in a local and steps it so keeps the state in
// registers; through uint64's pointer it goes to memory and back on every
// draw (BenchmarkDatagen's DOUBLE column: 10% slower).
func (p pcg) step() (pcg, uint64) {
	hi, lo := bits.Mul64(p.lo, pcgMulLo)
	hi += p.hi*pcgMulLo + p.lo*pcgMulHi
	lo, c := bits.Add64(lo, pcgIncLo, 0)
	hi, _ = bits.Add64(hi, pcgIncHi, c)
	next := pcg{hi: hi, lo: lo}
	hi ^= hi >> 32
	hi *= pcgCheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return next, hi
}

// float64 is (*rand.Rand).Float64, in [0, 1).
func (p *pcg) float64() float64 { return float64(p.uint64()<<11>>11) / (1 << 53) }

// uint64n is (*rand.Rand).Uint64N on a 64-bit platform: uniform in [0, n)
// for n > 0, by Lemire's multiply with rejection (a power of two masks).
func (p *pcg) uint64n(n uint64) uint64 {
	if n&(n-1) == 0 {
		return p.uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(p.uint64(), n)
	if lo < n {
		*p, hi = p.reject(hi, lo, n)
	}
	return hi
}

// reject is uint64n's rare slow path (lo < n): it draws again while the
// product falls in the biased range.
func (p pcg) reject(hi, lo, n uint64) (pcg, uint64) {
	thresh := -n % n
	for lo < thresh {
		var v uint64
		p, v = p.step()
		hi, lo = bits.Mul64(v, n)
	}
	return p, hi
}

// intn is (*rand.Rand).IntN for n > 0.
func (p *pcg) intn(n int) int { return int(p.uint64n(uint64(n))) }

// mask is uint64n(m+1) for m+1 a power of two, small enough to inline.
func (p *pcg) mask(m uint64) uint64 { return p.uint64() & m }

// resumeGenerator finishes opening a generator read (r, or the error of
// opening it): it restores the state a checkpoint recorded, when at is
// set, and hands out the reader.
func resumeGenerator(r *generatorReader, err error, at *checkpoint.Decoder) (BatchReader, error) {
	if err == nil && at != nil {
		err = r.restoreState(at)
	}
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return r, nil
}
