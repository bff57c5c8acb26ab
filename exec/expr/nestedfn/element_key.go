package nestedfn

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// elemKey is an element as a comparable Go value: the set functions
// (ARRAY_DISTINCT, ARRAY_UNION, ...), ARRAY_CONTAINS, ARRAY_POSITION,
// ARRAY_REMOVE and MAP keys compare elements by it. Two elements are equal
// when their keys are: numbers by value (DOUBLE by its bits, with -0.0 as
// 0.0; NaN equals NaN, as Java's equals), strings and bytes by content, a
// nested value by its canonical encoding.
type elemKey struct {
	a, b uint64
	s    string
}

// CanCompare reports the element types the set functions and MAP keys
// compare (elementKeys): the scalar ones, and a ROW, ARRAY or MAP of them
// (by their canonical encoding, key_encoding.go).
func CanCompare(dt arrow.DataType) bool {
	if isNested(dt) {
		return Comparable(dt, dt)
	}
	return canKeyScalar(dt)
}

func isNested(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRUCT, arrow.LIST, arrow.MAP:
		return true
	}
	return false
}

func canKeyScalar(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.STRING, arrow.BINARY, arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP, arrow.DECIMAL128:
		return true
	}
	return false
}

// elementKeys returns the key of each element of values: a scalar read
// in place (keyAt), a nested value by its canonical encoding, written for
// the whole array once per batch (equal values, a MAP's entries in any
// order, encode alike).
func elementKeys(values arrow.Array) (func(i int) elemKey, error) {
	if !isNested(values.DataType()) {
		return keyAt(values), nil
	}
	w, err := newKeyWriter(values)
	if err != nil {
		return nil, err
	}
	var buf []byte
	ends := make([]int, values.Len())
	for i := range ends {
		if values.IsValid(i) {
			buf = w(buf, i)
		}
		ends[i] = len(buf)
	}
	return func(i int) elemKey {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		if start == ends[i] {
			return elemKey{}
		}
		return elemKey{s: unsafe.String(&buf[start], ends[i]-start)}
	}, nil
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
		return func(i int) elemKey { return elemKey{a: math.Float64bits(zeroed(float64(a.Value(i))))} }
	case *array.Float64:
		return func(i int) elemKey { return elemKey{a: math.Float64bits(zeroed(a.Value(i)))} }
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

// zeroed makes -0.0 the 0.0 it equals.
func zeroed(v float64) float64 {
	if v == 0 {
		return 0
	}
	return v
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
