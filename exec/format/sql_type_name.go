package format

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format/intervaltext"
)

// SQLTypeName names an Arrow type as the SQL type that declares it, as
// DESCRIBE, EXPLAIN and error messages print it.
func SQLTypeName(dt arrow.DataType) string {
	if name := nestedSQLTypeName(dt); name != "" {
		return name
	}
	switch t := dt.(type) {
	case *arrow.DurationType:
		return intervaltext.DayTimeName
	case *arrow.MonthIntervalType:
		return intervaltext.YearMonthName
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return fmt.Sprintf("TIMESTAMP_LTZ(%d)", TimeUnitDigits(t.Unit))
		}
		return fmt.Sprintf("TIMESTAMP(%d)", TimeUnitDigits(t.Unit))
	case *arrow.Time32Type:
		return fmt.Sprintf("TIME(%d)", TimeUnitDigits(t.Unit))
	case *arrow.Decimal128Type:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	}
	switch dt.ID() {
	case arrow.BINARY:
		return "BYTES"
	case arrow.INT8:
		return "TINYINT"
	case arrow.INT16:
		return "SMALLINT"
	case arrow.INT32:
		return "INT"
	case arrow.INT64:
		return "BIGINT"
	case arrow.FLOAT32:
		return "FLOAT"
	case arrow.FLOAT64:
		return "DOUBLE"
	case arrow.STRING:
		return "STRING"
	case arrow.BOOL:
		return "BOOLEAN"
	case arrow.DATE32:
		return "DATE"
	}
	return dt.String()
}
