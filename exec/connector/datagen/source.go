package datagen

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/rowtime"
)

// Source is the reader side of Flink's 'datagen' connector: rows of random or
// sequence values, one generator per physical column, generated a column
// at a time. Column i draws from its own PCG seeded with (Seed, i) and
// takes a fixed number of draws per row, so the rows depend on the seed
// alone, not on the batch size.
type Source struct {
	// NumberOfRows bounds the source; -1 leaves it unbounded (a query then
	// runs until cancelled). A sequence column that reaches its end also
	// ends the source, as in Flink.
	NumberOfRows int64
	// RowsPerSecond is 'rows-per-second'; the read is paced at it only
	// when Throttle is set (the planner sets it under the system clock, so
	// a test's manual clock never sleeps). 0 means no limit.
	RowsPerSecond int64
	Throttle      bool
	Seed          int64
	Fields        []Field // one per physical column, in order
	// Clock tells "now" for random TIMESTAMP, TIMESTAMP_LTZ and DATE values
	// (within max-past of it); nil is the system clock. Location is the
	// session time zone, whose wall time a TIMESTAMP and a DATE take.
	Clock    rowtime.Clock
	Location *time.Location
}

// Field is the generator of one column, with defaults resolved.
type Field struct {
	Name     string
	Sequence bool // kind 'sequence': Start, Start+1, ..., End
	// Min and Max bound random integers (TINYINT..BIGINT) and the unscaled
	// value of a DECIMAL; Start and End a sequence.
	Min, Max   int64
	Start, End int64
	MinF, MaxF float64       // FLOAT and DOUBLE random bounds
	Length     int           // STRING random length
	MaxPast    time.Duration // TIMESTAMP, TIMESTAMP_LTZ, DATE: random within [now - MaxPast, now]
}

// Rows returns how many rows a read delivers, or -1 when unbounded.
func (s *Source) Rows() int64 {
	total := s.NumberOfRows
	for _, f := range s.Fields {
		if !f.Sequence {
			continue
		}
		var n int64 // values in [Start, End], at most MaxInt64
		if span := uint64(f.End) - uint64(f.Start); f.End < f.Start {
			n = 0
		} else if span >= math.MaxInt64 {
			n = math.MaxInt64
		} else {
			n = int64(span) + 1
		}
		if total < 0 || n < total {
			total = n
		}
	}
	return total
}

// Bounded reports whether the source ends by itself.
func (s *Source) Bounded() bool { return s.Rows() >= 0 }

// Explain lists the connector's key options for EXPLAIN.
func (s *Source) Explain() string {
	var b strings.Builder
	b.WriteString("connector=[datagen], ")
	if s.NumberOfRows >= 0 {
		b.WriteString("number-of-rows=[" + strconv.FormatInt(s.NumberOfRows, 10) + "], ")
	} else if s.Rows() >= 0 {
		b.WriteString("rows=[" + strconv.FormatInt(s.Rows(), 10) + "] (sequence), ")
	} else {
		b.WriteString("unbounded, ")
	}
	b.WriteString("rows-per-second=[" + strconv.FormatInt(s.RowsPerSecond, 10) + "]")
	if !s.Throttle && s.RowsPerSecond > 0 {
		b.WriteString(" (not paced: manual clock)")
	}
	b.WriteString(", seed=[" + strconv.FormatInt(s.Seed, 10) + "]")
	var seq []string
	for _, f := range s.Fields {
		if f.Sequence {
			seq = append(seq, fmt.Sprintf("%s=%d..%d", f.Name, f.Start, f.End))
		}
	}
	if len(seq) > 0 {
		b.WriteString(", sequence=[" + strings.Join(seq, ", ") + "]")
	}
	return b.String()
}

// Open starts a read.
func (s *Source) Open(mem memory.Allocator, schema *arrow.Schema, batchSize int) (exec.BatchReader, error) {
	return s.open(mem, schema, batchSize, nil)
}

// OpenAt continues a read from the state its reader's SaveState wrote:
// the rows delivered and each column's PCG and sequence counter. The time
// columns take "now" from the clock as ever.
func (s *Source) OpenAt(mem memory.Allocator, schema *arrow.Schema, batchSize int, at *checkpoint.Decoder) (exec.BatchReader, error) {
	return s.open(mem, schema, batchSize, at)
}

func (s *Source) open(mem memory.Allocator, schema *arrow.Schema, batchSize int, at *checkpoint.Decoder) (exec.BatchReader, error) {
	if len(s.Fields) != schema.NumFields() {
		return nil, fmt.Errorf("%w: datagen has %d field generators for %d columns", exec.ErrSource, len(s.Fields), schema.NumFields())
	}
	f := &datagenFiller{src: s, cols: make([]datagenColumn, len(s.Fields))}
	for i, fd := range s.Fields {
		f.cols[i] = datagenColumn{
			field: fd,
			typ:   schema.Field(i).Type,
			rng:   generator.NewPCG(uint64(s.Seed), uint64(i)),
			next:  fd.Start,
		}
		f.cols[i].str.PerRow = fd.Length // a random string's; a sequence's grows to fit
	}
	rate := 0.0
	if s.Throttle && s.RowsPerSecond > 0 {
		rate = float64(s.RowsPerSecond)
	}
	return generator.Open(mem, schema, batchSize, s.Rows(), rate, f, at)
}

type datagenFiller struct {
	src  *Source
	cols []datagenColumn
	ints []int64 // scratch of a DECIMAL column
}

// datagenColumn is one column's generator: its own PCG, seeded with
// (Seed, column), so each column's values are one stream of draws,
// whatever the batch size.
type datagenColumn struct {
	field Field
	typ   arrow.DataType
	rng   generator.PCG
	next  int64                  // the next sequence value
	str   generator.StringColumn // of a STRING column
}

func (f *datagenFiller) Kind() string { return "datagen" }

// SaveState writes, per column, whether it is a sequence, its PCG and its
// next sequence value: the whole of its generator.
func (f *datagenFiller) SaveState(e *checkpoint.Encoder) {
	e.Uint(uint64(len(f.cols)))
	for i := range f.cols {
		c := &f.cols[i]
		e.Bool(c.field.Sequence)
		hi, lo := c.rng.State()
		e.Uint(hi)
		e.Uint(lo)
		e.Int(c.next)
	}
}

// RestoreState reads what SaveState wrote after rows rows. Any PCG state
// may follow, but a sequence must stand rows past its start, and a
// column that counts no sequence at its start still.
func (f *datagenFiller) RestoreState(d *checkpoint.Decoder, rows int64) {
	if n := d.Len(4); d.Err() == nil && n != len(f.cols) {
		d.Fail("datagen state of %d columns for %d", n, len(f.cols))
		return
	}
	for i := range f.cols {
		c := &f.cols[i]
		seq, hi, lo, next := d.Bool(), d.Uint(), d.Uint(), d.Int()
		if d.Err() != nil {
			return
		}
		if seq != c.field.Sequence {
			d.Fail("datagen column %d is a sequence in the state, not in the table, or the reverse", i)
			return
		}
		want := c.field.Start
		if c.counts() {
			want = int64(uint64(want) + uint64(rows)) // rows values on from Start, wrapping as the column does
		}
		if next != want {
			d.Fail("datagen column %d: sequence at %d after %d rows from %d", i, next, rows, c.field.Start)
			return
		}
		c.rng, c.next = generator.NewPCG(hi, lo), next
	}
}

// counts tells whether column c's values step its sequence counter: a
// sequence of a type whose values column makes from the counter.
func (c *datagenColumn) counts() bool {
	if !c.field.Sequence {
		return false
	}
	switch c.typ.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DECIMAL128, arrow.STRING, arrow.DATE32, arrow.TIMESTAMP:
		return true
	}
	return false
}

func (f *datagenFiller) now() time.Time {
	if f.src.Clock == nil {
		return time.Now()
	}
	return f.src.Clock.Now()
}

// wallMillis is t's wall time in the session zone as epoch milliseconds,
// how a TIMESTAMP (without zone) is kept.
func (f *datagenFiller) wallMillis(t time.Time) int64 {
	loc := f.src.Location
	if loc == nil {
		loc = time.UTC
	}
	_, off := t.In(loc).Zone()
	return t.UnixMilli() + int64(off)*1000
}

func (f *datagenFiller) Fill(mem memory.Allocator, cols []arrow.Array, _ int64, n int) {
	now := f.now()
	for i := range f.cols {
		cols[i] = f.column(mem, &f.cols[i], n, now)
	}
}

// fillInts fills out with the column's next integers: sequence values, or
// random ones in [Min, Max] (uniform draws over the whole int64 range too,
// with their branches taken once per batch instead of once per value). A value wraps to T's width as a
// conversion would.
func fillInts[T int8 | int16 | int32 | int64](c *datagenColumn, lo, hi int64, out []T) {
	if c.field.Sequence {
		v := c.next
		for i := range out {
			out[i] = T(v)
			v++
		}
		c.next = v
		return
	}
	r := c.rng // a local, stepped by value, stays in registers
	span := uint64(hi) - uint64(lo)
	var v uint64
	switch {
	case span == math.MaxUint64:
		for i := range out {
			r, v = r.Step()
			out[i] = T(int64(v))
		}
	case span&(span+1) == 0: // span+1 is a power of two: uint64n masks
		for i := range out {
			r, v = r.Step()
			out[i] = T(lo + int64(v&span))
		}
	default:
		m := span + 1
		for i := range out {
			r, v = r.Step()
			v, low := bits.Mul64(v, m)
			if low < m {
				r, v = r.Reject(v, low, m)
			}
			out[i] = T(lo + int64(v))
		}
	}
	c.rng = r
}

// fillFloats fills out with the column's next FLOAT or DOUBLE values.
func fillFloats[T float32 | float64](c *datagenColumn, out []T) {
	if c.field.Sequence {
		v := c.next
		for i := range out {
			out[i] = T(float64(v))
			v++
		}
		c.next = v
		return
	}
	r := c.rng
	lo, span := c.field.MinF, c.field.MaxF-c.field.MinF
	for i := range out {
		var v uint64
		r, v = r.Step()
		out[i] = T(lo + float64(v<<11>>11)/(1<<53)*span) // r.Float64()
	}
	c.rng = r
}

// column makes the next n values of column c.
func (f *datagenFiller) column(mem memory.Allocator, c *datagenColumn, n int, now time.Time) arrow.Array {
	fd := c.field
	switch c.typ.ID() {
	case arrow.INT8:
		buf, v := expr.NewValues[int8](mem, n)
		fillInts(c, fd.Min, fd.Max, v)
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.INT16:
		buf, v := expr.NewValues[int16](mem, n)
		fillInts(c, fd.Min, fd.Max, v)
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.INT32:
		buf, v := expr.NewValues[int32](mem, n)
		fillInts(c, fd.Min, fd.Max, v)
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.INT64:
		buf, v := expr.NewValues[int64](mem, n)
		fillInts(c, fd.Min, fd.Max, v)
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.FLOAT32:
		buf, v := expr.NewValues[float32](mem, n)
		fillFloats(c, v)
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.FLOAT64:
		buf, v := expr.NewValues[float64](mem, n)
		fillFloats(c, v)
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.DECIMAL128:
		// A sequence counts whole numbers; random values are unscaled.
		unit := int64(1)
		if fd.Sequence {
			for range c.typ.(*arrow.Decimal128Type).Scale {
				unit *= 10
			}
		}
		buf, v := expr.NewValues[decimal128.Num](mem, n)
		f.ints = slices.Grow(f.ints[:0], n)[:n]
		fillInts(c, fd.Min, fd.Max, f.ints)
		for i, x := range f.ints {
			v[i] = decimal128.FromI64(x * unit)
		}
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.BOOL:
		buf, bitmap := expr.NewBits(mem, n)
		r := c.rng
		for i := range n {
			bitmap[i>>3] |= byte(r.Uint64()&1) << (i & 7)
		}
		c.rng = r
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.STRING:
		str := c.str // a local: appends store no slice header in the heap
		str.Start(mem, n)
		if fd.Sequence {
			v := c.next
			for range n {
				str.Data = strconv.AppendInt(str.Data, v, 10)
				str.End()
				v++
			}
			c.next = v
		} else {
			r := c.rng
			for range n {
				str.Data = appendHex(str.Data, &r, fd.Length)
				str.End()
			}
			c.rng = r
		}
		a := str.Array(mem)
		c.str = str
		return a
	case arrow.DATE32:
		wall := f.wallMillis(now)
		today := wall / 86_400_000
		if wall < 0 && wall%86_400_000 != 0 {
			today--
		}
		days := int64(fd.MaxPast / (24 * time.Hour))
		buf, v := expr.NewValues[int32](mem, n)
		fillInts(c, 0, days, v) // random days back, wrapped to int32 as the date is
		for i := range v {
			v[i] = int32(today) - v[i]
		}
		return expr.NewArray(c.typ, n, nil, 0, buf)
	case arrow.TIMESTAMP:
		ms := now.UnixMilli()
		if c.typ.(*arrow.TimestampType).TimeZone == "" {
			ms = f.wallMillis(now)
		}
		buf, v := expr.NewValues[int64](mem, n)
		fillInts(c, 0, fd.MaxPast.Milliseconds(), v)
		// Flink draws milliseconds; a column of another unit holds the
		// same instant (TIMESTAMP(0) truncated to its second).
		switch unit := c.typ.(*arrow.TimestampType).Unit; unit {
		case arrow.Second:
			for i := range v {
				v[i] = rowtime.FloorDiv(ms-v[i], 1000)
			}
		default:
			scale := int64(time.Millisecond / unit.Multiplier()) // 1, 1000 or 1e6
			for i := range v {
				v[i] = (ms - v[i]) * scale
			}
		}
		return expr.NewArray(c.typ, n, nil, 0, buf)
	}
	// The planner admits only the types above.
	return array.MakeArrayOfNull(mem, c.typ, n)
}

const hexDigits = "0123456789abcdef"

// appendHex appends length random hex digits (as Flink's random strings),
// 16 per draw, so each row takes a fixed number of draws.
func appendHex(buf []byte, r *generator.PCG, length int) []byte {
	for length > 0 {
		v := r.Uint64()
		for k := 0; k < 16 && length > 0; k++ {
			buf = append(buf, hexDigits[v&15])
			v >>= 4
			length--
		}
	}
	return buf
}

var _ exec.Resumable = (*Source)(nil)
