package catalog

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format/intervaltext"
	"github.com/wsql/wsql/sql"
)

// ArrowType maps a SQL type to the Arrow type wsql stores it as
// (docs/sql-reference.md, "Data types").
// TIMESTAMP(p) and TIMESTAMP_LTZ(p) take the Arrow unit that holds p digits
// (timestamp_precision.go); a TIMESTAMP written without precision is
// TIMESTAMP(6), a TIME is TIME(0), as in Flink.
func ArrowType(t sql.TypeName) (arrow.DataType, error) {
	if t.IsNested() {
		return nestedArrowType(t)
	}
	switch t.Name {
	case "STRING", "VARCHAR", "CHAR":
		return arrow.BinaryTypes.String, nil
	case "BYTES", "BINARY", "VARBINARY":
		return arrow.BinaryTypes.Binary, nil // the length applies in CAST, as CHAR's
	case "BOOLEAN":
		return arrow.FixedWidthTypes.Boolean, nil
	case "TINYINT":
		return arrow.PrimitiveTypes.Int8, nil
	case "SMALLINT":
		return arrow.PrimitiveTypes.Int16, nil
	case "INT":
		return arrow.PrimitiveTypes.Int32, nil
	case "BIGINT":
		return arrow.PrimitiveTypes.Int64, nil
	case "FLOAT":
		return arrow.PrimitiveTypes.Float32, nil
	case "DOUBLE":
		return arrow.PrimitiveTypes.Float64, nil
	case "DECIMAL":
		p, s := int32(10), int32(0) // Flink's default DECIMAL is DECIMAL(10, 0)
		if t.Precision >= 0 {
			p = int32(t.Precision)
		}
		if t.Scale >= 0 {
			s = int32(t.Scale)
		}
		if p < 1 || p > 38 || s < 0 || s > p {
			return nil, sql.Errorf(sql.ErrInvalid, t.At, "DECIMAL(%d, %d) is invalid: precision must be 1 to 38 and scale 0 to precision", p, s)
		}
		return &arrow.Decimal128Type{Precision: p, Scale: s}, nil
	case "DATE":
		return arrow.FixedWidthTypes.Date32, nil
	case "TIME":
		return timeArrowType(t)
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		return timestampArrowType(t)
	case "INTERVAL": // Flink's months and milliseconds, whatever the precisions
		if t.Interval.YearMonth {
			return intervaltext.YearMonth, nil
		}
		return intervaltext.DayTime, nil
	}
	return nil, sql.Errorf(sql.ErrUnsupported, t.At, "type %s is not supported", t.Name)
}

// TypeString prints a SQL type as Flink writes it, e.g. TIMESTAMP(3).
func TypeString(t sql.TypeName) string {
	if t.IsNested() {
		var b strings.Builder
		writeNestedType(&b, t)
		return b.String()
	}
	switch {
	case t.Interval != nil:
		return "INTERVAL " + t.Interval.Qualifier
	case t.Name == "TIMESTAMP" || t.Name == "TIMESTAMP_LTZ":
		p := t.Precision
		if p < 0 {
			p = DefaultTimestampPrecision
		}
		return fmt.Sprintf("%s(%d)", t.Name, p)
	case t.Name == "TIME":
		return fmt.Sprintf("TIME(%d)", max(t.Precision, 0))
	case t.Precision >= 0 && t.Scale >= 0:
		return fmt.Sprintf("%s(%d, %d)", t.Name, t.Precision, t.Scale)
	case t.Precision >= 0:
		return fmt.Sprintf("%s(%d)", t.Name, t.Precision)
	}
	return t.Name
}
