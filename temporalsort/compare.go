package temporalsort

import (
	"bytes"
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// compareFunc compares rows i and j of one column: negative when i sorts
// first. NULL sorts before every value (Flink's NULLS FIRST for ASC).
type compareFunc func(i, j int) int

// columnCompare builds the comparison of column a, typed once per release
// so the sort makes no interface call per comparison.
func columnCompare(a arrow.Array) (compareFunc, error) {
	switch c := a.(type) {
	case *array.Int8:
		return valuesCompare(c, c.Int8Values()), nil
	case *array.Int16:
		return valuesCompare(c, c.Int16Values()), nil
	case *array.Int32:
		return valuesCompare(c, c.Int32Values()), nil
	case *array.Int64:
		return valuesCompare(c, c.Int64Values()), nil
	case *array.Uint8:
		return valuesCompare(c, c.Uint8Values()), nil
	case *array.Uint16:
		return valuesCompare(c, c.Uint16Values()), nil
	case *array.Uint32:
		return valuesCompare(c, c.Uint32Values()), nil
	case *array.Uint64:
		return valuesCompare(c, c.Uint64Values()), nil
	case *array.Float32:
		return valuesCompare(c, c.Float32Values()), nil
	case *array.Float64:
		return valuesCompare(c, c.Float64Values()), nil
	case *array.Date32:
		return valuesCompare(c, c.Date32Values()), nil
	case *array.Date64:
		return valuesCompare(c, c.Date64Values()), nil
	case *array.Time32:
		return valuesCompare(c, c.Time32Values()), nil
	case *array.Time64:
		return valuesCompare(c, c.Time64Values()), nil
	case *array.Timestamp:
		return valuesCompare(c, c.TimestampValues()), nil
	case *array.Duration:
		return valuesCompare(c, c.DurationValues()), nil
	case *array.Boolean:
		return nullsFirst(c, func(i, j int) int { return cmp.Compare(b2i(c.Value(i)), b2i(c.Value(j))) }), nil
	case *array.String:
		return nullsFirst(c, func(i, j int) int { return cmp.Compare(c.Value(i), c.Value(j)) }), nil
	case *array.LargeString:
		return nullsFirst(c, func(i, j int) int { return cmp.Compare(c.Value(i), c.Value(j)) }), nil
	case *array.Binary:
		return nullsFirst(c, func(i, j int) int { return bytes.Compare(c.Value(i), c.Value(j)) }), nil
	case *array.Decimal128:
		return nullsFirst(c, func(i, j int) int { return c.Value(i).Cmp(c.Value(j)) }), nil
	}
	return nil, fmt.Errorf("ORDER BY cannot sort by %s values", a.DataType())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func valuesCompare[T cmp.Ordered](a arrow.Array, vals []T) compareFunc {
	return nullsFirst(a, func(i, j int) int { return cmp.Compare(vals[i], vals[j]) })
}

// nullsFirst wraps the comparison of non-NULL values of a.
func nullsFirst(a arrow.Array, values compareFunc) compareFunc {
	if a.NullN() == 0 {
		return values
	}
	return func(i, j int) int {
		ni, nj := a.IsNull(i), a.IsNull(j)
		switch {
		case ni && nj:
			return 0
		case ni:
			return -1
		case nj:
			return 1
		}
		return values(i, j)
	}
}
