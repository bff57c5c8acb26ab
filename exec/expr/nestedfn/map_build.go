package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// entryDedup keeps a map's keys unique while its entries are collected:
// a repeated key keeps the place of its first entry and takes the value
// of the later one. One per batch, cleared per row.
type entryDedup struct {
	pos map[elemKey]int
}

func newEntryDedup() *entryDedup { return &entryDedup{pos: map[elemKey]int{}} }

func (d *entryDedup) reset() { clear(d.pos) }

// add adds the entry of key k at e (in the keys) to b; vidx, when not
// nil, collects the entry's value at v alongside.
func (d *entryDedup) add(b *listBuilder, vidx *[]int32, k elemKey, e, v int) {
	if p, ok := d.pos[k]; ok {
		b.idx[p] = int32(e)
		if vidx != nil {
			(*vidx)[p] = int32(v)
		}
		return
	}
	d.pos[k] = len(b.idx)
	b.add(e)
	if vidx != nil {
		*vidx = append(*vidx, int32(v))
	}
}

// finishMap takes the entries' keys (rows kidx of keys) and values (rows
// vidx of values) and returns the map array of type dt with b's offsets.
func finishMap(dt *arrow.MapType, b *listBuilder, keys arrow.Array, kidx []int32, values arrow.Array, vidx []int32, validity *memory.Buffer, nulls int, mem memory.Allocator) (arrow.Array, error) {
	n := len(b.offs) - 1
	b.offs[n] = int32(len(kidx))
	fail := func(err error) (arrow.Array, error) {
		b.offb.Release()
		if validity != nil {
			validity.Release()
		}
		return nil, err
	}
	k, err := expr.Take(keys, kidx, mem)
	if err != nil {
		return fail(err)
	}
	defer k.Release()
	v, err := expr.Take(values, vidx, mem)
	if err != nil {
		return fail(err)
	}
	defer v.Release()
	entries := array.NewData(dt.Elem(), len(kidx), []*memory.Buffer{nil}, []arrow.ArrayData{k.Data(), v.Data()}, 0, 0)
	ea := array.MakeFromData(entries)
	entries.Release()
	return newList(dt, n, validity, nulls, b.offb, ea), nil
}

// FromArrays is MAP_FROM_ARRAYS(keys, values): the MAP of keys[i] to
// values[i]; a repeated key keeps its last value. NULL when either array
// is; arrays of different lengths, or a NULL key, fail the query, as in
// Flink.
type FromArrays struct {
	Keys, Values expr.Expr
	Type         *arrow.MapType
}

func (f *FromArrays) DataType() arrow.DataType { return f.Type }

func (f *FromArrays) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll([]expr.Expr{f.Keys, f.Values}, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	ls, ok := listsOf(cols)
	if !ok {
		return array.MakeArrayOfNull(mem, f.Type, n), nil
	}
	keys, values := ls[0].ListValues(), ls[1].ListValues()
	key, err := elementKeys(keys)
	if err != nil {
		return nil, err
	}
	validity, nulls := expr.AndValidity(mem, n, cols...)
	b := newListBuilder(mem, n, keys.Len())
	vidx := make([]int32, 0, keys.Len())
	d := newEntryDedup()
	for i := 0; i < n; i++ {
		b.startRow(i)
		if nulls > 0 && anyNull(cols, i) {
			continue
		}
		ks, ke := ls[0].ValueOffsets(i)
		vs, ve := ls[1].ValueOffsets(i)
		if ke-ks != ve-vs {
			if validity != nil {
				validity.Release()
			}
			b.offb.Release()
			return nil, fmt.Errorf("MAP_FROM_ARRAYS: the keys array has %d elements and the values array %d; they must have the same length", ke-ks, ve-vs)
		}
		d.reset()
		for j := int64(0); j < ke-ks; j++ {
			e := int(ks + j)
			if keys.IsNull(e) {
				if validity != nil {
					validity.Release()
				}
				b.offb.Release()
				return nil, fmt.Errorf("MAP_FROM_ARRAYS: a key is NULL; a MAP key cannot be NULL")
			}
			d.add(b, &vidx, key(e), e, int(vs+j))
		}
	}
	return finishMap(f.Type, b, keys, b.idx, values, vidx, validity, nulls, mem)
}

func (f *FromArrays) String() string { return fmt.Sprintf("MAP_FROM_ARRAYS(%s, %s)", f.Keys, f.Values) }

// Children lets conditional forms see the sub-expressions.
func (f *FromArrays) Children() []expr.Expr { return []expr.Expr{f.Keys, f.Values} }

// CanFail: arrays of different lengths or a NULL key fail the query.
func (f *FromArrays) CanFail() bool { return true }

// MapUnion is MAP_UNION(map1, ...): the entries of every map, a key of a
// later map replacing the value of an earlier one (at its first place).
// NULL when any map is.
type MapUnion struct {
	Maps []expr.Expr
}

func (u *MapUnion) DataType() arrow.DataType { return u.Maps[0].DataType() }

func (u *MapUnion) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	cols, release, err := evalAll(u.Maps, rec, mem)
	if err != nil {
		return nil, err
	}
	defer release()
	n := cols[0].Len()
	ms := make([]*array.Map, len(cols))
	keys, values := make([]arrow.Array, len(cols)), make([]arrow.Array, len(cols))
	base := make([]int, len(cols))
	total := 0
	for k, c := range cols {
		m, ok := c.(*array.Map)
		if !ok {
			return array.MakeArrayOfNull(mem, u.DataType(), n), nil
		}
		ms[k], keys[k], values[k], base[k] = m, m.Keys(), m.Items(), total
		total += m.Keys().Len()
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
	key, err := elementKeys(kall)
	if err != nil {
		return nil, err
	}
	validity, nulls := expr.AndValidity(mem, n, cols...)
	b := newListBuilder(mem, n, total)
	d := newEntryDedup()
	for i := 0; i < n; i++ {
		b.startRow(i)
		if nulls > 0 && anyNull(cols, i) {
			continue
		}
		d.reset()
		for k, m := range ms {
			start, end := m.ValueOffsets(i)
			for e := base[k] + int(start); e < base[k]+int(end); e++ {
				d.add(b, nil, key(e), e, 0)
			}
		}
	}
	return finishMap(u.DataType().(*arrow.MapType), b, kall, b.idx, vall, b.idx, validity, nulls, mem)
}

func (u *MapUnion) String() string { return "MAP_UNION(" + joinExprs(u.Maps) + ")" }

// Children lets conditional forms see the sub-expressions.
func (u *MapUnion) Children() []expr.Expr { return u.Maps }

// MapEntries is MAP_ENTRIES(map): the entries as an ARRAY of ROW<key,
// value>, sharing the map's buffers (a map is a list of such rows).
type MapEntries struct {
	X expr.Expr
}

// EntriesType is MAP_ENTRIES' result for a map type.
func EntriesType(m *arrow.MapType) *arrow.ListType {
	return arrow.ListOfField(arrow.Field{Name: "element", Type: m.Elem(), Nullable: true})
}

func (m *MapEntries) DataType() arrow.DataType { return EntriesType(m.X.DataType().(*arrow.MapType)) }

func (m *MapEntries) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := m.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	mp, ok := a.(*array.Map)
	if !ok {
		return array.MakeArrayOfNull(mem, m.DataType(), a.Len()), nil
	}
	d := mp.Data()
	out := array.NewData(m.DataType(), d.Len(), d.Buffers()[:2], d.Children(), d.NullN(), d.Offset())
	defer out.Release()
	return array.MakeFromData(out), nil
}

func (m *MapEntries) String() string { return fmt.Sprintf("MAP_ENTRIES(%s)", m.X) }

// Children lets conditional forms see the sub-expression.
func (m *MapEntries) Children() []expr.Expr { return []expr.Expr{m.X} }
