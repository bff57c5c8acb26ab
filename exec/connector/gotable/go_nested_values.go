package gotable

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format"
)

// convertNested converts a Go value for a ROW, ARRAY, MAP or MULTISET
// column, the Go values Rows.Scan gives back (exec/govalue) and the shapes
// a Go program holds them in:
//
//	ROW        map[string]any by field name (a missing field is NULL), or a
//	           struct whose fields are found as AppendStruct finds columns
//	ARRAY      any slice or array
//	MAP        any map; entries in the order of their keys' text
//	MULTISET   a map from element to its count, or a slice of the elements
//
// The parts are converted as columns of their types are; ok is false for
// a column that is not nested.
func convertNested(v any, f arrow.Field) (goValue, bool, error) {
	if !format.IsNestedType(f.Type) {
		return goValue{}, false, nil
	}
	rv := reflect.ValueOf(v)
	bad := func() (goValue, bool, error) {
		return goValue{}, true, fmt.Errorf("column %s is %s and cannot take the Go value %v (%T)", f.Name, format.SQLTypeName(f.Type), v, v)
	}
	part := func(x reflect.Value, pf arrow.Field, name string) (goValue, error) {
		pf.Name = name
		if !x.IsValid() {
			return convertGoValue(nil, pf)
		}
		return convertGoValue(x.Interface(), pf)
	}
	switch dt := f.Type.(type) {
	case *arrow.StructType:
		out := goValue{kids: make([]goValue, dt.NumFields())}
		var field func(k int) reflect.Value
		switch rv.Kind() {
		case reflect.Map:
			if rv.Type().Key().Kind() != reflect.String {
				return bad()
			}
			names := map[string]int{}
			for k, sf := range dt.Fields() {
				names[strings.ToLower(sf.Name)] = k
			}
			byField := make([]reflect.Value, dt.NumFields())
			for it := rv.MapRange(); it.Next(); {
				k, ok := names[strings.ToLower(it.Key().String())]
				if !ok {
					return goValue{}, true, fmt.Errorf("column %s is %s, which has no field %s", f.Name, format.SQLTypeName(f.Type), it.Key().String())
				}
				byField[k] = it.Value()
			}
			field = func(k int) reflect.Value { return byField[k] }
		case reflect.Struct:
			field = func(k int) reflect.Value {
				if j, ok := StructField(rv.Type(), dt.Field(k).Name); ok {
					return rv.Field(j)
				}
				return reflect.Value{}
			}
		default:
			return bad()
		}
		for k, sf := range dt.Fields() {
			var err error
			if out.kids[k], err = part(field(k), sf, f.Name+"."+sf.Name); err != nil {
				return goValue{}, true, err
			}
		}
		return out, true, nil
	case *arrow.ListType:
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			return bad()
		}
		out := goValue{kids: make([]goValue, rv.Len())}
		for j := range out.kids {
			var err error
			if out.kids[j], err = part(rv.Index(j), dt.ElemField(), fmt.Sprintf("%s[%d]", f.Name, j+1)); err != nil {
				return goValue{}, true, err
			}
		}
		return out, true, nil
	case *arrow.MapType:
		if format.IsMultiset(dt) && (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) {
			return multisetOfSlice(rv, f, dt)
		}
		if rv.Kind() != reflect.Map {
			return bad()
		}
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		out := goValue{kids: make([]goValue, 0, 2*len(keys))}
		for _, k := range keys {
			kv, err := part(k, dt.KeyField(), f.Name+" key")
			if err != nil {
				return goValue{}, true, err
			}
			iv, err := part(rv.MapIndex(k), dt.ItemField(), fmt.Sprintf("%s[%v]", f.Name, k))
			if err != nil {
				return goValue{}, true, err
			}
			if format.IsMultiset(dt) && iv.i <= 0 {
				return goValue{}, true, fmt.Errorf("column %s is %s and the count of %v is %d; a MULTISET counts each element at least once", f.Name, format.SQLTypeName(f.Type), k, iv.i)
			}
			out.kids = append(out.kids, kv, iv)
		}
		return out, true, nil
	}
	return bad()
}

// multisetOfSlice counts a slice's elements into a MULTISET's entries, in
// the order each element first appears.
func multisetOfSlice(rv reflect.Value, f arrow.Field, dt *arrow.MapType) (goValue, bool, error) {
	type scalar struct {
		null bool
		i    int64
		f    float64
		s    string
		d    [2]uint64
	}
	var out goValue
	index := map[scalar]int{}
	for j := 0; j < rv.Len(); j++ {
		kf := dt.KeyField()
		kf.Name = f.Name + " element"
		var x any
		if e := rv.Index(j); e.IsValid() {
			x = e.Interface()
		}
		kv, err := convertGoValue(x, kf)
		if err != nil {
			return goValue{}, true, err
		}
		if kv.kids != nil {
			return goValue{}, true, fmt.Errorf("column %s is %s: give a MULTISET of nested elements as a map of counts", f.Name, format.SQLTypeName(f.Type))
		}
		key := scalar{kv.null, kv.i, kv.f, kv.s, [2]uint64{uint64(kv.d.HighBits()), kv.d.LowBits()}}
		if at, ok := index[key]; ok {
			out.kids[at+1].i++
			continue
		}
		index[key] = len(out.kids)
		out.kids = append(out.kids, kv, goValue{i: 1})
	}
	return out, true, nil
}

// appendNested appends a converted nested value to its builder.
func appendNested(b array.Builder, v goValue) bool {
	switch b := b.(type) {
	case *array.StructBuilder:
		b.Append(true)
		for k, kid := range v.kids {
			appendGoValue(b.FieldBuilder(k), kid)
		}
	case *array.ListBuilder:
		b.Append(true)
		for _, kid := range v.kids {
			appendGoValue(b.ValueBuilder(), kid)
		}
	case *array.MapBuilder:
		b.Append(true)
		for j := 0; j < len(v.kids); j += 2 {
			appendGoValue(b.KeyBuilder(), v.kids[j])
			appendGoValue(b.ItemBuilder(), v.kids[j+1])
		}
	default:
		return false
	}
	return true
}
