package exec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/wsql/wsql/rowtime"
)

// DatagenSource is Flink's 'datagen' connector: rows of random or
// sequence values, one generator per physical column, generated a column
// at a time. Column i draws from its own PCG seeded with (Seed, i) and
// takes a fixed number of draws per row, so the rows depend on the seed
// alone, not on the batch size.
type DatagenSource struct {
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
	Fields        []DatagenField // one per physical column, in order
	// Clock tells "now" for random TIMESTAMP, TIMESTAMP_LTZ and DATE values
	// (within max-past of it); nil is the system clock. Location is the
	// session time zone, whose wall time a TIMESTAMP and a DATE take.
	Clock    rowtime.Clock
	Location *time.Location
}

// DatagenField is the generator of one column, with defaults resolved.
type DatagenField struct {
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
func (s *DatagenSource) Rows() int64 {
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
func (s *DatagenSource) Bounded() bool { return s.Rows() >= 0 }

// Explain lists the connector's key options for EXPLAIN.
func (s *DatagenSource) Explain() string {
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
func (s *DatagenSource) Open(mem memory.Allocator, schema *arrow.Schema, batchSize int) (BatchReader, error) {
	if len(s.Fields) != schema.NumFields() {
		return nil, fmt.Errorf("%w: datagen has %d field generators for %d columns", ErrSource, len(s.Fields), schema.NumFields())
	}
	f := &datagenFiller{src: s, cols: make([]datagenColumn, len(s.Fields))}
	for i, fd := range s.Fields {
		f.cols[i] = datagenColumn{
			field: fd,
			typ:   schema.Field(i).Type,
			rng:   rand.New(rand.NewPCG(uint64(s.Seed), uint64(i))),
			next:  fd.Start,
		}
	}
	rate := 0.0
	if s.Throttle && s.RowsPerSecond > 0 {
		rate = float64(s.RowsPerSecond)
	}
	return newGeneratorReader(mem, schema, batchSize, s.Rows(), rate, f), nil
}

type datagenFiller struct {
	src  *DatagenSource
	cols []datagenColumn
	buf  []byte
}

type datagenColumn struct {
	field DatagenField
	typ   arrow.DataType
	rng   *rand.Rand
	next  int64 // the next sequence value
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

func (f *datagenFiller) fill(b *array.RecordBuilder, _ int64, n int) {
	now := f.now()
	for i := range f.cols {
		f.fillColumn(&f.cols[i], b.Field(i), n, now)
	}
}

// randInt draws uniformly from [lo, hi], over the whole int64 range too.
func randInt(r *rand.Rand, lo, hi int64) int64 {
	span := uint64(hi) - uint64(lo)
	if span == math.MaxUint64 {
		return int64(r.Uint64())
	}
	return lo + int64(r.Uint64N(span+1))
}

func (f *datagenFiller) fillColumn(c *datagenColumn, bld array.Builder, n int, now time.Time) {
	fd := c.field
	// value returns the column's next integer: a sequence value or a
	// random one within [Min, Max].
	value := func() int64 {
		if fd.Sequence {
			v := c.next
			c.next++
			return v
		}
		return randInt(c.rng, fd.Min, fd.Max)
	}
	floatValue := func() float64 {
		if fd.Sequence {
			v := c.next
			c.next++
			return float64(v)
		}
		return fd.MinF + c.rng.Float64()*(fd.MaxF-fd.MinF)
	}
	switch b := bld.(type) {
	case *array.Int8Builder:
		for range n {
			b.Append(int8(value()))
		}
	case *array.Int16Builder:
		for range n {
			b.Append(int16(value()))
		}
	case *array.Int32Builder:
		for range n {
			b.Append(int32(value()))
		}
	case *array.Int64Builder:
		for range n {
			b.Append(value())
		}
	case *array.Float32Builder:
		for range n {
			b.Append(float32(floatValue()))
		}
	case *array.Float64Builder:
		for range n {
			b.Append(floatValue())
		}
	case *array.Decimal128Builder:
		// A sequence counts whole numbers; random values are unscaled.
		unit := int64(1)
		if fd.Sequence {
			for range c.typ.(*arrow.Decimal128Type).Scale {
				unit *= 10
			}
		}
		for range n {
			b.Append(decimal128.FromI64(value() * unit))
		}
	case *array.BooleanBuilder:
		for range n {
			b.Append(c.rng.Uint64()&1 == 1)
		}
	case *array.StringBuilder:
		for range n {
			if fd.Sequence {
				f.buf = strconv.AppendInt(f.buf[:0], value(), 10)
			} else {
				f.buf = appendHex(f.buf[:0], c.rng, fd.Length)
			}
			b.BinaryBuilder.Append(f.buf)
		}
	case *array.Date32Builder:
		wall := f.wallMillis(now)
		today := wall / 86_400_000
		if wall < 0 && wall%86_400_000 != 0 {
			today--
		}
		days := int64(fd.MaxPast / (24 * time.Hour))
		for range n {
			b.Append(arrow.Date32(today - randInt(c.rng, 0, days)))
		}
	case *array.TimestampBuilder:
		ms := now.UnixMilli()
		if c.typ.(*arrow.TimestampType).TimeZone == "" {
			ms = f.wallMillis(now)
		}
		past := fd.MaxPast.Milliseconds()
		for range n {
			b.Append(arrow.Timestamp(ms - randInt(c.rng, 0, past)))
		}
	default:
		// The planner admits only the types above.
		for range n {
			bld.AppendNull()
		}
	}
}

const hexDigits = "0123456789abcdef"

// appendHex appends length random hex digits (as Flink's random strings),
// 16 per draw, so each row takes a fixed number of draws.
func appendHex(buf []byte, r *rand.Rand, length int) []byte {
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

var _ Connector = (*DatagenSource)(nil)
