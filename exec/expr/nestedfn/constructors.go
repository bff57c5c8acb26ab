package nestedfn

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// ArrayOf is ARRAY[e1, e2, ...]: per row an ARRAY of the values, never
// NULL itself. The elements (already of the element type) are
// interleaved with one take per batch.
type ArrayOf struct {
	Elems []expr.Expr
	Type  *arrow.ListType
}

func (a *ArrayOf) DataType() arrow.DataType { return a.Type }

func (a *ArrayOf) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll(a.Elems, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := int(rec.NumRows())
	k := len(cols)
	all, err := array.Concatenate(cols, mem)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	b := newListBuilder(mem, n, n*k)
	for i := 0; i < n; i++ {
		b.startRow(i)
		for j := 0; j < k; j++ {
			b.add(j*n + i)
		}
	}
	return b.finish(a.Type, all, nil, 0, mem)
}

func (a *ArrayOf) String() string { return "ARRAY[" + joinExprs(a.Elems) + "]" }

// Children lets conditional forms see the sub-expressions.
func (a *ArrayOf) Children() []expr.Expr { return a.Elems }

// MapOf is MAP[k1, v1, k2, v2, ...]: per row a MAP of the pairs, never
// NULL itself. A key written twice keeps its first place and its last
// value, as Java's LinkedHashMap.put. Arrow maps have no NULL keys, so a NULL key is an error.
type MapOf struct {
	Keys, Values []expr.Expr
	Type         *arrow.MapType
}

func (m *MapOf) DataType() arrow.DataType { return m.Type }

func (m *MapOf) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	keys, releaseKeys, err := evalAll(m.Keys, rec, mem)
	if err != nil {
		return nil, err
	}
	defer releaseKeys()
	values, releaseValues, err := evalAll(m.Values, rec, mem)
	if err != nil {
		return nil, err
	}
	defer releaseValues()
	n, k := int(rec.NumRows()), len(keys)
	for _, key := range keys {
		if key.NullN() > 0 {
			return nil, fmt.Errorf("MAP: a key is NULL; a MAP key cannot be NULL")
		}
	}
	key := make([]func(int) elemKey, k)
	for j := range keys {
		if key[j], err = elementKeys(keys[j]); err != nil {
			return nil, err
		}
	}
	b := newListBuilder(mem, n, n*k)
	d := newEntryDedup()
	for i := 0; i < n; i++ {
		b.startRow(i)
		d.reset()
		for j := 0; j < k; j++ {
			d.add(b, nil, key[j](i), j*n+i, 0)
		}
	}
	kall, err := array.Concatenate(keys, mem)
	if err != nil {
		return nil, err
	}
	defer kall.Release()
	vall, err := array.Concatenate(values, mem)
	if err != nil {
		return nil, err
	}
	defer vall.Release()
	return finishMap(m.Type, b, kall, b.idx, vall, b.idx, nil, 0, mem)
}

func (m *MapOf) String() string {
	parts := make([]string, 0, 2*len(m.Keys))
	for j := range m.Keys {
		parts = append(parts, m.Keys[j].String(), m.Values[j].String())
	}
	return "MAP[" + strings.Join(parts, ", ") + "]"
}

// Children lets conditional forms see the sub-expressions.
func (m *MapOf) Children() []expr.Expr { return append(append([]expr.Expr{}, m.Keys...), m.Values...) }

// CanFail: a NULL key fails the query.
func (m *MapOf) CanFail() bool { return true }

// RowOf is ROW(v1, v2, ...) and (v1, v2, ...): per row a ROW of the
// values, never NULL itself; the values become the struct's children
// without a copy.
type RowOf struct {
	Fields []expr.Expr
	Type   *arrow.StructType
}

func (r *RowOf) DataType() arrow.DataType { return r.Type }

func (r *RowOf) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll(r.Fields, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	children := make([]arrow.ArrayData, len(cols))
	for k, c := range cols {
		children[k] = c.Data()
	}
	d := array.NewData(r.Type, int(rec.NumRows()), []*memory.Buffer{nil}, children, 0, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

func (r *RowOf) String() string { return "ROW(" + joinExprs(r.Fields) + ")" }

// Children lets conditional forms see the sub-expressions.
func (r *RowOf) Children() []expr.Expr { return r.Fields }

func joinExprs(xs []expr.Expr) string {
	parts := make([]string, len(xs))
	for k, x := range xs {
		parts[k] = x.String()
	}
	return strings.Join(parts, ", ")
}
