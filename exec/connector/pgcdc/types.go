package pgcdc

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// PostgreSQL's type oids (pg_type.oid) of the types the connector reads.
const (
	oidBool        = 16
	oidBytea       = 17
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidText        = 25
	oidJSON        = 114
	oidFloat4      = 700
	oidFloat8      = 701
	oidBpchar      = 1042
	oidVarchar     = 1043
	oidDate        = 1082
	oidTimestamp   = 1114
	oidTimestamptz = 1184
	oidNumeric     = 1700
	oidUUID        = 2950
	oidJSONB       = 3802
)

// sources are the PostgreSQL types a column of each Arrow type may be
// read from, the first the one Flink CDC maps to it; nil for a type the
// connector cannot read.
func sources(t arrow.DataType) []uint32 {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return []uint32{oidBool}
	case *arrow.Int16Type:
		return []uint32{oidInt2}
	case *arrow.Int32Type:
		return []uint32{oidInt4, oidInt2}
	case *arrow.Int64Type:
		return []uint32{oidInt8, oidInt4, oidInt2}
	case *arrow.Float32Type:
		return []uint32{oidFloat4}
	case *arrow.Float64Type:
		return []uint32{oidFloat8, oidFloat4}
	case *arrow.Decimal128Type:
		return []uint32{oidNumeric, oidInt2, oidInt4, oidInt8}
	case *arrow.StringType:
		return []uint32{oidText, oidVarchar, oidBpchar, oidJSON, oidJSONB, oidUUID}
	case *arrow.BinaryType:
		return []uint32{oidBytea}
	case *arrow.Date32Type:
		return []uint32{oidDate}
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return []uint32{oidTimestamptz}
		}
		return []uint32{oidTimestamp}
	}
	return nil
}

// flinkType is the Flink type Flink CDC reads a PostgreSQL type as, for
// the message of a mismatch; "" for one the connector cannot read.
func flinkType(oid uint32) string {
	switch oid {
	case oidBool:
		return "BOOLEAN"
	case oidInt2:
		return "SMALLINT"
	case oidInt4:
		return "INT"
	case oidInt8:
		return "BIGINT"
	case oidFloat4:
		return "FLOAT"
	case oidFloat8:
		return "DOUBLE"
	case oidNumeric:
		return "DECIMAL(p, s)"
	case oidText, oidVarchar, oidBpchar, oidJSON, oidJSONB, oidUUID:
		return "STRING"
	case oidBytea:
		return "BYTES"
	case oidDate:
		return "DATE"
	case oidTimestamp:
		return "TIMESTAMP(6)"
	case oidTimestamptz:
		return "TIMESTAMP_LTZ(6)"
	}
	return ""
}

// readsFrom reports whether a column of type t can read PostgreSQL type
// oid.
func readsFrom(t arrow.DataType, oid uint32) bool {
	for _, o := range sources(t) {
		if o == oid {
			return true
		}
	}
	return false
}

// appendText appends a value in PostgreSQL's text form to b, a builder of
// the column's Arrow type.
func appendText(b array.Builder, text []byte) error {
	s := string(text)
	switch b := b.(type) {
	case *array.BooleanBuilder:
		switch s {
		case "t":
			b.Append(true)
		case "f":
			b.Append(false)
		default:
			return fmt.Errorf("'%s' is not a boolean", s)
		}
	case *array.Int16Builder:
		v, err := strconv.ParseInt(s, 10, 16)
		if err != nil {
			return err
		}
		b.Append(int16(v))
	case *array.Int32Builder:
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return err
		}
		b.Append(int32(v))
	case *array.Int64Builder:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return err
		}
		b.Append(v)
	case *array.Float32Builder:
		v, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return err
		}
		b.Append(float32(v))
	case *array.Float64Builder:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		b.Append(v)
	case *array.Decimal128Builder:
		t := b.Type().(*arrow.Decimal128Type)
		v, err := decimal128.FromString(s, t.Precision, t.Scale)
		if err != nil {
			return fmt.Errorf("'%s' does not fit DECIMAL(%d, %d): %v", s, t.Precision, t.Scale, err)
		}
		b.Append(v)
	case *array.StringBuilder:
		b.Append(s)
	case *array.BinaryBuilder:
		h, ok := strings.CutPrefix(s, `\x`)
		if !ok {
			return fmt.Errorf("bytea '%s' is not in hex form (bytea_output = 'hex')", s)
		}
		v, err := hex.DecodeString(h)
		if err != nil {
			return err
		}
		b.Append(v)
	case *array.Date32Builder:
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return fmt.Errorf("date '%s' is outside what the column holds (years 0001 to 9999)", s)
		}
		b.Append(arrow.Date32FromTime(d))
	case *array.TimestampBuilder:
		t := b.Type().(*arrow.TimestampType)
		var ts time.Time
		var err error
		if t.TimeZone != "" {
			ts, err = time.Parse("2006-01-02 15:04:05.999999999Z07", s)
			if err != nil {
				ts, err = time.Parse("2006-01-02 15:04:05.999999999Z07:00", s)
			}
		} else {
			ts, err = time.Parse("2006-01-02 15:04:05.999999999", s)
		}
		if err != nil {
			return fmt.Errorf("timestamp '%s' is outside what the column holds (years 0001 to 9999)", s)
		}
		switch t.Unit {
		case arrow.Second:
			b.Append(arrow.Timestamp(ts.Unix()))
		case arrow.Millisecond:
			b.Append(arrow.Timestamp(ts.UnixMilli()))
		case arrow.Microsecond:
			b.Append(arrow.Timestamp(ts.UnixMicro()))
		default:
			b.Append(arrow.Timestamp(ts.UnixNano()))
		}
	default:
		return fmt.Errorf("no reader for %s", b.Type())
	}
	return nil
}
