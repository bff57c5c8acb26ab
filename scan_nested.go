package wsql

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/wsql/wsql/exec/connector/gotable"
)

// assignNested scans a nested value (a ROW read as map[string]any, an
// ARRAY as []any, a MAP or MULTISET as map[string]any or map[any]any) into
// a Go struct, slice or map of any element types, each part as Scan takes
// it: a ROW's fields go into the struct fields named like them (or tagged
// `wsql:"name"`), an ARRAY's elements into a slice, a MAP's entries into a
// map. done is false when v or dst is not of this kind.
func (r *Rows) assignNested(dst reflect.Value, v any, c int, field string) (done bool, err error) {
	t := dst.Type()
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				j, ok := gotable.StructField(t, k)
				if !ok {
					return true, fmt.Errorf("wsql: column %q (%s) into %s: struct %s has no field for %q; add an exported field named like it or tagged `wsql:\"%s\"`", r.schema.Field(c).Name, r.columnType(c), r.into(t, field), t, k, k)
				}
				if err := r.assignValue(dst.Field(j), x[k], c, partName(t, field, k)); err != nil {
					return true, err
				}
			}
			return true, nil
		case reflect.Map:
			return true, r.assignMap(dst, len(x), func(yield func(k, v any) error) error {
				for k, e := range x {
					if err := yield(k, e); err != nil {
						return err
					}
				}
				return nil
			}, c, field)
		}
	case map[any]any:
		if t.Kind() == reflect.Map {
			return true, r.assignMap(dst, len(x), func(yield func(k, v any) error) error {
				for k, e := range x {
					if err := yield(k, e); err != nil {
						return err
					}
				}
				return nil
			}, c, field)
		}
	case []any:
		if t.Kind() == reflect.Slice {
			s := reflect.MakeSlice(t, len(x), len(x))
			for i, e := range x {
				if err := r.assignValue(s.Index(i), e, c, fmt.Sprintf("%s[%d]", partName(t, field, ""), i)); err != nil {
					return true, err
				}
			}
			dst.Set(s)
			return true, nil
		}
	}
	return false, nil
}

// assignMap fills a new Go map of dst's type with the entries each gives.
func (r *Rows) assignMap(dst reflect.Value, n int, each func(yield func(k, v any) error) error, c int, field string) error {
	t := dst.Type()
	m := reflect.MakeMapWithSize(t, n)
	err := each(func(k, v any) error {
		kv, vv := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		name := fmt.Sprintf("%s[%v]", partName(t, field, ""), k)
		if err := r.assignValue(kv, k, c, name); err != nil {
			return err
		}
		if err := r.assignValue(vv, v, c, name); err != nil {
			return err
		}
		m.SetMapIndex(kv, vv)
		return nil
	})
	if err != nil {
		return err
	}
	dst.Set(m)
	return nil
}

// partName names a part of a nested value in errors: field.sub, or the
// Go type when the value is scanned as a whole.
func partName(t fmt.Stringer, field, sub string) string {
	base := field
	if base == "" {
		base = t.String()
	}
	if sub == "" {
		return base
	}
	return base + "." + sub
}
