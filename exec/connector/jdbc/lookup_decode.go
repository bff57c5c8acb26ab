package jdbc

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/catalog"
)

// decoder appends a value PostgreSQL sent (nil for NULL) to the builder
// of its column: no allocation but the builder's.
type decoder func(b array.Builder, v []byte) error

// newDecoder is the decoder of a column of Arrow type t read from a
// PostgreSQL column of type oid, and the format the value is asked in:
// binary (1), or text (0) for numeric and jsonb, whose text is simpler.
func newDecoder(t arrow.DataType, oid uint32) (decoder, int16) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
			} else {
				b.(*array.BooleanBuilder).Append(len(v) == 1 && v[0] != 0)
			}
			return nil
		}, 1
	case *arrow.Int8Type:
		return intDecoder(math.MinInt8, math.MaxInt8, func(b array.Builder, x int64) { b.(*array.Int8Builder).Append(int8(x)) }), 1
	case *arrow.Int16Type:
		return intDecoder(math.MinInt16, math.MaxInt16, func(b array.Builder, x int64) { b.(*array.Int16Builder).Append(int16(x)) }), 1
	case *arrow.Int32Type:
		return intDecoder(math.MinInt32, math.MaxInt32, func(b array.Builder, x int64) { b.(*array.Int32Builder).Append(int32(x)) }), 1
	case *arrow.Int64Type:
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
				return nil
			}
			x, err := beInt(v)
			b.(*array.Int64Builder).Append(x)
			return err
		}, 1
	case *arrow.Float32Type:
		return func(b array.Builder, v []byte) error {
			switch len(v) {
			case 0:
				b.AppendNull()
			case 4:
				b.(*array.Float32Builder).Append(math.Float32frombits(be.Uint32(v)))
			default:
				b.(*array.Float32Builder).Append(float32(math.Float64frombits(be.Uint64(v))))
			}
			return nil
		}, 1
	case *arrow.Float64Type:
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
			} else {
				b.(*array.Float64Builder).Append(math.Float64frombits(be.Uint64(v)))
			}
			return nil
		}, 1
	case *arrow.Decimal128Type:
		prec, scale := t.Precision, t.Scale
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
				return nil
			}
			d, err := decimal128.FromString(string(v), prec, scale)
			if err != nil {
				b.AppendNull()
				return fmt.Errorf("%s does not fit DECIMAL(%d, %d)", v, prec, scale)
			}
			b.(*array.Decimal128Builder).Append(d)
			return nil
		}, 0
	case *arrow.StringType:
		format := int16(1)
		if oid == oidJSONB {
			format = 0
		}
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
			} else {
				b.(*array.StringBuilder).BinaryBuilder.Append(v)
			}
			return nil
		}, format
	case *arrow.BinaryType:
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
			} else {
				b.(*array.BinaryBuilder).Append(v)
			}
			return nil
		}, 1
	case *arrow.Date32Type:
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
				return nil
			}
			d := int32(be.Uint32(v))
			if d == math.MaxInt32 || d == math.MinInt32 {
				b.AppendNull()
				return fmt.Errorf("an infinite date has no DATE value")
			}
			b.(*array.Date32Builder).Append(arrow.Date32(d + pgEpochDays))
			return nil
		}, 1
	case *arrow.Time32Type:
		per := int64(1e6)
		if t.Unit == arrow.Millisecond {
			per = 1e3
		}
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
			} else {
				b.(*array.Time32Builder).Append(arrow.Time32(int64(be.Uint64(v)) / per))
			}
			return nil
		}, 1
	case *arrow.TimestampType:
		fromMicros := microsTo(t.Unit)
		return func(b array.Builder, v []byte) error {
			if v == nil {
				b.AppendNull()
				return nil
			}
			us := int64(be.Uint64(v))
			if us == math.MaxInt64 || us == math.MinInt64 {
				b.AppendNull()
				return fmt.Errorf("an infinite timestamp has no TIMESTAMP value")
			}
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(fromMicros(us + pgEpochSeconds*1e6)))
			return nil
		}, 1
	}
	panic("jdbc: no decoder for " + t.String()) // planLookup checked the type
}

// intDecoder reads smallint, integer or bigint into an integer column of
// the range [lo, hi].
func intDecoder(lo, hi int64, put func(b array.Builder, x int64)) decoder {
	return func(b array.Builder, v []byte) error {
		if v == nil {
			b.AppendNull()
			return nil
		}
		x, err := beInt(v)
		if err == nil && (x < lo || x > hi) {
			b.AppendNull()
			return fmt.Errorf("%d is out of the column's range", x)
		}
		put(b, x)
		return err
	}
}

// beInt reads a big-endian integer of 2, 4 or 8 bytes.
func beInt(v []byte) (int64, error) {
	switch len(v) {
	case 2:
		return int64(int16(be.Uint16(v))), nil
	case 4:
		return int64(int32(be.Uint32(v))), nil
	case 8:
		return int64(be.Uint64(v)), nil
	}
	return 0, fmt.Errorf("an integer of %d bytes", len(v))
}

// microsTo converts microseconds since the Unix epoch to unit.
func microsTo(unit arrow.TimeUnit) func(int64) int64 {
	switch unit {
	case arrow.Second:
		return func(v int64) int64 {
			if v < 0 && v%1e6 != 0 {
				return v/1e6 - 1
			}
			return v / 1e6
		}
	case arrow.Millisecond:
		return func(v int64) int64 {
			if v < 0 && v%1e3 != 0 {
				return v/1e3 - 1
			}
			return v / 1e3
		}
	case arrow.Microsecond:
		return func(v int64) int64 { return v }
	}
	return func(v int64) int64 { return v * 1e3 }
}

// readable checks that a column of table is read from a PostgreSQL column
// of pgTable: of a type it is written to (types.go), or an integer or
// floating-point type it holds every value of.
func readable(table, pgTable string, c catalog.Column, pg pgColumn) error {
	for _, o := range targets(c.Type) {
		if o == pg.oid {
			return nil
		}
	}
	wider := map[arrow.Type][]uint32{
		arrow.INT32: {oidInt2}, arrow.INT64: {oidInt2, oidInt4}, arrow.FLOAT64: {oidFloat4},
	}
	for _, o := range wider[c.Type.ID()] {
		if o == pg.oid {
			return nil
		}
	}
	return fmt.Errorf("table %s: column %s is %s, but column %s of PostgreSQL table %s is %s, which a lookup join does not read into %s",
		table, c.Name, c.SQLType, pg.name, pgTable, pg.shown, c.SQLType)
}
