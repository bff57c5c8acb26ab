package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Element is array[index]: the element at the 1-based index, NULL where
// the array or the index is NULL or the index is out of range (as Flink's
// generated code does).
type Element struct {
	X, Index expr.Expr
}

func (e *Element) DataType() arrow.DataType {
	return e.X.DataType().(*arrow.ListType).Elem()
}

func (e *Element) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	ix, err := e.Index.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer ix.Release()
	l, ok := a.(*array.List)
	if !ok || ix.DataType().ID() == arrow.NULL {
		return array.MakeArrayOfNull(mem, e.DataType(), a.Len()), nil
	}
	n := l.Len()
	idx := make([]int32, n) // one per batch
	buf, valid := newBits(mem, n)
	defer buf.Release()
	for i := 0; i < n; i++ {
		if l.IsNull(i) || ix.IsNull(i) {
			continue
		}
		k := intAt(ix, i)
		start, end := l.ValueOffsets(i)
		if k < 1 || k > end-start {
			continue
		}
		idx[i] = int32(start + k - 1)
		valid[i>>3] |= 1 << (i & 7)
	}
	return takeValid(l.ListValues(), idx, valid, e.DataType(), mem)
}

func (e *Element) String() string { return fmt.Sprintf("%s[%s]", e.X, e.Index) }

// Children lets conditional forms see the sub-expressions.
func (e *Element) Children() []expr.Expr { return []expr.Expr{e.X, e.Index} }

// MapValue is map[key]: the value of the key, NULL where the map or the
// key is NULL or the map does not hold the key.
type MapValue struct {
	X, Key expr.Expr
}

func (m *MapValue) DataType() arrow.DataType {
	return m.X.DataType().(*arrow.MapType).ItemType()
}

func (m *MapValue) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := m.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	key, err := m.Key.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer key.Release()
	mp, ok := a.(*array.Map)
	if !ok || key.DataType().ID() == arrow.NULL {
		return array.MakeArrayOfNull(mem, m.DataType(), a.Len()), nil
	}
	n := mp.Len()
	idx := make([]int32, n) // one per batch
	buf, valid := newBits(mem, n)
	defer buf.Release()
	keys := mp.Keys()
	eq := equalAt(keys, key)
	for i := 0; i < n; i++ {
		if mp.IsNull(i) || key.IsNull(i) {
			continue
		}
		start, end := mp.ValueOffsets(i)
		for e := start; e < end; e++ {
			if eq(int(e), i) {
				idx[i] = int32(e)
				valid[i>>3] |= 1 << (i & 7)
				break
			}
		}
	}
	return takeValid(mp.Items(), idx, valid, m.DataType(), mem)
}

func (m *MapValue) String() string { return fmt.Sprintf("%s[%s]", m.X, m.Key) }

// Children lets conditional forms see the sub-expressions.
func (m *MapValue) Children() []expr.Expr { return []expr.Expr{m.X, m.Key} }

// takeValid takes rows idx of values where valid is set; the other rows
// are NULL.
func takeValid(values arrow.Array, idx []int32, valid []byte, dt arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	if values.Len() == 0 {
		return array.MakeArrayOfNull(mem, dt, len(idx)), nil
	}
	out, err := expr.Take(values, idx, mem)
	if err != nil {
		return nil, err
	}
	return expr.WithValidity(out, valid, mem), nil
}

// intAt reads row i of an integer array.
func intAt(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	}
	return 0
}

// CanKey reports whether a map with keys (an array with elements) of type
// dt can be looked up.
func CanKey(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.BOOL, arrow.FLOAT64:
		return true
	}
	return false
}

// equalAt returns a comparison of keys' element e with key's row i; the
// key has the keys' type (the planner casts it).
func equalAt(keys, key arrow.Array) func(e, i int) bool {
	switch k := keys.(type) {
	case *array.String:
		q := key.(*array.String)
		return func(e, i int) bool { return k.IsValid(e) && k.Value(e) == q.Value(i) }
	case *array.Boolean:
		q := key.(*array.Boolean)
		return func(e, i int) bool { return k.IsValid(e) && k.Value(e) == q.Value(i) }
	case *array.Float64:
		q := key.(*array.Float64)
		return func(e, i int) bool { return k.IsValid(e) && k.Value(e) == q.Value(i) }
	}
	return func(e, i int) bool { return keys.IsValid(e) && intAt(keys, e) == intAt(key, i) }
}
