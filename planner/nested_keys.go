package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// nestedKeyError refuses a ROW, ARRAY, MAP or MULTISET grouping key at its
// position: Flink groups by them, wsql's key tables hold scalars only yet.
func nestedKeyError(dt arrow.DataType, at sql.Pos) error {
	if !format.IsNestedType(dt) {
		return nil
	}
	return sql.Errorf(sql.ErrUnsupported, at, "grouping by a value of type %s is not supported yet", format.SQLTypeName(dt))
}

// nestedCompareError refuses comparing ROW, ARRAY, MAP or MULTISET values
// at the comparison: Flink compares them, wsql's kernels compare scalars.
func nestedCompareError(at sql.Pos, l, r arrow.DataType) error {
	return sql.Errorf(sql.ErrUnsupported, at, "comparing %s with %s is not supported yet", format.SQLTypeName(l), format.SQLTypeName(r))
}
