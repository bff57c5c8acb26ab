package function

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// ArgClass is what an aggregate accepts, and how the error names it.
type ArgClass struct {
	What  string
	OK    func(arrow.DataType) bool
	Param ArgType // the parameter's type in the function's signature
}

// The argument classes of the aggregates.
var (
	AnyArg     = ArgClass{"any", func(arrow.DataType) bool { return true }, ArgType{Name: "any", Sample: "s"}}
	NumericArg = ArgClass{"a numeric", isAggNumeric, ArgType{Name: "NUMERIC", Sample: "d"}}
	// ComparableArg: MIN, MAX, FIRST_VALUE and LAST_VALUE; every type wsql
	// stores.
	ComparableArg = ArgClass{"a comparable", func(dt arrow.DataType) bool {
		switch dt.ID() {
		case arrow.BOOL, arrow.STRING, arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP:
			return true
		}
		return isAggNumeric(dt)
	}, ArgType{Name: "NUMERIC/STRING/BOOLEAN/DATE/TIME/TIMESTAMP", Sample: "s"}}
	StringArg = ArgClass{"a STRING", func(dt arrow.DataType) bool { return dt.ID() == arrow.STRING }, ArgType{Name: "STRING", Sample: "s"}}
	// ElementArg: ARRAY_AGG and COLLECT; a comparable scalar, BYTES, TIME
	// or a ROW, ARRAY, MAP or MULTISET (held as its canonical encoding).
	ElementArg = ArgClass{"a value", func(dt arrow.DataType) bool {
		switch dt.ID() {
		case arrow.BINARY, arrow.TIME64, arrow.STRUCT, arrow.LIST, arrow.MAP:
			return true
		}
		return ComparableArg.OK(dt)
	}, ArgType{Name: "any", Sample: "s"}}
)

func isAggNumeric(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128:
		return true
	}
	return false
}
