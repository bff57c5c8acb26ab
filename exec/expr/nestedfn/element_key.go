package nestedfn

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// elemKey is an element of a scalar type as a comparable Go value: the
// set functions (ARRAY_DISTINCT, ARRAY_UNION, ...), MAP keys and
// ARRAY_REMOVE compare elements by it. Two elements are equal when their
// keys are, as Flink's equals: numbers by value (DOUBLE by its bits, so
// NaN equals NaN), strings and bytes by content.
type elemKey struct {
	a, b uint64
	s    string
}

// CanCompare reports the element types the set functions and MAP keys
// compare (keyAt).
func CanCompare(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.STRING, arrow.BINARY, arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP, arrow.DECIMAL128:
		return true
	}
	return false
}

// keyAt returns the key of element i of a (not meaningful for a NULL
// element); the string of a key shares a's bytes, so a key lives no
// longer than a. The switch on the type is made once, here.
func keyAt(a arrow.Array) func(i int) elemKey {
	switch a := a.(type) {
	case *array.Boolean:
		return func(i int) elemKey {
			if a.Value(i) {
				return elemKey{a: 1}
			}
			return elemKey{}
		}
	case *array.Int8:
		return func(i int) elemKey { return elemKey{a: uint64(a.Value(i))} }
	case *array.Int16:
		return func(i int) elemKey { return elemKey{a: uint64(a.Value(i))} }
	case *array.Int32:
		return func(i int) elemKey { return elemKey{a: uint64(a.Value(i))} }
	case *array.Int64:
		return func(i int) elemKey { return elemKey{a: uint64(a.Value(i))} }
	case *array.Float32:
		return func(i int) elemKey { return elemKey{a: uint64(math.Float32bits(a.Value(i)))} }
	case *array.Float64:
		return func(i int) elemKey { return elemKey{a: math.Float64bits(a.Value(i))} }
	case *array.String:
		return func(i int) elemKey { return elemKey{s: a.Value(i)} }
	case *array.Binary:
		return func(i int) elemKey {
			v := a.Value(i)
			return elemKey{s: unsafe.String(unsafe.SliceData(v), len(v))}
		}
	case *array.Date32:
		return func(i int) elemKey { return elemKey{a: uint64(a.Value(i))} }
	case *array.Time32:
		return func(i int) elemKey { return elemKey{a: uint64(a.Value(i))} }
	case *array.Timestamp:
		return func(i int) elemKey { return elemKey{a: uint64(a.Value(i))} }
	case *array.Decimal128:
		return func(i int) elemKey {
			v := a.Value(i)
			return elemKey{a: v.LowBits(), b: uint64(v.HighBits())}
		}
	}
	return func(int) elemKey { return elemKey{} }
}

// elemSet is a set of element keys, and whether it holds NULL; one per
// batch, cleared per row, so a row allocates nothing once the map has
// grown.
type elemSet struct {
	keys    map[elemKey]struct{}
	hasNull bool
}

func newElemSet() *elemSet { return &elemSet{keys: map[elemKey]struct{}{}} }

func (s *elemSet) reset() {
	clear(s.keys)
	s.hasNull = false
}

// addAt adds element e of values (key its keyAt) and reports whether it
// was new.
func (s *elemSet) addAt(values arrow.Array, key func(int) elemKey, e int) bool {
	if values.IsNull(e) {
		if s.hasNull {
			return false
		}
		s.hasNull = true
		return true
	}
	k := key(e)
	if _, ok := s.keys[k]; ok {
		return false
	}
	s.keys[k] = struct{}{}
	return true
}

// hasAt reports whether the set holds element e of values.
func (s *elemSet) hasAt(values arrow.Array, key func(int) elemKey, e int) bool {
	if values.IsNull(e) {
		return s.hasNull
	}
	_, ok := s.keys[key(e)]
	return ok
}
