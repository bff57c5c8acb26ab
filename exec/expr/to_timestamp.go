package expr

import (
	"fmt"
	"strconv"

	"github.com/wsql/wsql/exec/expr/datepattern"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/rowtime"
)

var (
	timestampMillis    = &arrow.TimestampType{Unit: arrow.Millisecond}
	timestampLTZMillis = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

// ToTimestampLTZ is Flink's TO_TIMESTAMP_LTZ(epoch, precision): an integer
// of epoch seconds (precision 0) or milliseconds (precision 3) as an instant.
// NULL in, NULL out; NULL too, as in Flink, for an instant outside
// 0000-01-01 to 9999-12-31 (rowtime.MinEventTime to MaxEventTime), so
// seconds never wrap around when scaled to milliseconds.
type ToTimestampLTZ struct {
	Arg       Expr
	Precision int
}

func (f *ToTimestampLTZ) DataType() arrow.DataType { return timestampLTZMillis }
func (f *ToTimestampLTZ) children() []Expr         { return []Expr{f.Arg} }

func (f *ToTimestampLTZ) String() string {
	return fmt.Sprintf("TO_TIMESTAMP_LTZ(%s, %d)", f.Arg, f.Precision)
}

func (f *ToTimestampLTZ) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	in, err := f.Arg.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	scale := int64(1)
	if f.Precision == 0 {
		scale = 1000
	}
	if a, ok := in.(*array.Int64); ok && scale == 1 && epochsInRange(a.Int64Values(), 1) {
		// Epoch milliseconds already are timestamp[ms] values: share the
		// buffers instead of copying them (a tenth of an in-memory query).
		d := array.NewData(timestampLTZMillis, a.Len(), a.Data().Buffers(), nil, a.NullN(), a.Data().Offset())
		defer d.Release()
		return array.MakeFromData(d), nil
	}
	b := array.NewTimestampBuilder(mem, timestampLTZMillis)
	defer b.Release()
	b.Reserve(in.Len())
	switch a := in.(type) {
	case *array.Int8:
		appendEpochs(b, a.Int8Values(), in, scale)
	case *array.Int16:
		appendEpochs(b, a.Int16Values(), in, scale)
	case *array.Int32:
		appendEpochs(b, a.Int32Values(), in, scale)
	case *array.Int64:
		appendEpochs(b, a.Int64Values(), in, scale)
	default:
		return nil, fmt.Errorf("TO_TIMESTAMP_LTZ over %s is not supported", in.DataType())
	}
	return b.NewArray(), nil
}

func appendEpochs[T int8 | int16 | int32 | int64](b *array.TimestampBuilder, vals []T, in arrow.Array, scale int64) {
	lo, hi := rowtime.MinEventTime/scale, rowtime.MaxEventTime/scale
	for i, v := range vals {
		if in.IsNull(i) || int64(v) < lo || int64(v) > hi {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		b.UnsafeAppend(arrow.Timestamp(int64(v) * scale))
	}
}

// epochsInRange reports whether every value (NULL slots too, whatever they
// hold) is an epoch of the unit scale inside the range of TIMESTAMP_LTZ.
func epochsInRange(vals []int64, scale int64) bool {
	lo, hi := rowtime.MinEventTime/scale, rowtime.MaxEventTime/scale
	for _, v := range vals {
		if v < lo || v > hi {
			return false
		}
	}
	return true
}

// EpochInRange reports whether TO_TIMESTAMP_LTZ(v, precision) is not NULL
// for a non-NULL v: the planner refuses a constant outside the range.
func EpochInRange(v int64, precision int) bool {
	scale := int64(1000)
	if precision == 3 {
		scale = 1
	}
	return epochsInRange([]int64{v}, scale)
}

// ToTimestamp is Flink's TO_TIMESTAMP(s [, format]): text in a
// SimpleDateFormat-style pattern as a zone-less TIMESTAMP(3). Text that does
// not match gives NULL, as in Flink.
type ToTimestamp struct {
	Arg    Expr
	Format string
	layout *datepattern.Layout
}

// NewToTimestamp compiles the format once.
func NewToTimestamp(arg Expr, format string) (*ToTimestamp, error) {
	l, err := datepattern.Compile(format)
	if err != nil {
		return nil, err
	}
	return &ToTimestamp{Arg: arg, Format: format, layout: l}, nil
}

func (f *ToTimestamp) DataType() arrow.DataType { return timestampMillis }
func (f *ToTimestamp) children() []Expr         { return []Expr{f.Arg} }

func (f *ToTimestamp) String() string {
	return fmt.Sprintf("TO_TIMESTAMP(%s, %s)", f.Arg, strconv.Quote(f.Format))
}

func (f *ToTimestamp) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	in, err := f.Arg.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	s, ok := in.(*array.String)
	if !ok {
		return nil, fmt.Errorf("TO_TIMESTAMP over %s is not supported", in.DataType())
	}
	b := array.NewTimestampBuilder(mem, timestampMillis)
	defer b.Release()
	b.Reserve(s.Len())
	for i := 0; i < s.Len(); i++ {
		if s.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		ms, ok := f.layout.Parse(s.Value(i))
		if !ok {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		b.UnsafeAppend(arrow.Timestamp(ms))
	}
	return b.NewArray(), nil
}

// DefaultTimestampFormat is TO_TIMESTAMP's format when none is given.
const DefaultTimestampFormat = datepattern.Default
