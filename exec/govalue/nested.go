package govalue

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// nestedGoValue reads a nested value as Go values, its parts read by
// Reader: a ROW as map[string]any by field name, an ARRAY as []any, a MAP
// or MULTISET as map[string]any when its keys are strings (a MULTISET's
// values are the int64 counts) and map[any]any otherwise. nil for other
// arrays.
func nestedGoValue(arr arrow.Array, loc *time.Location) func(int) any {
	switch a := arr.(type) {
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		fields := make([]func(int) any, a.NumField())
		for k := range fields {
			fields[k] = Reader(a.Field(k), loc)
		}
		return func(i int) any {
			row := make(map[string]any, len(fields))
			for k, f := range fields {
				row[st.Field(k).Name] = f(i)
			}
			return row
		}
	case *array.Map:
		keys, items := Reader(a.Keys(), loc), Reader(a.Items(), loc)
		if a.Keys().DataType().ID() == arrow.STRING {
			return func(i int) any {
				start, end := a.ValueOffsets(i)
				m := make(map[string]any, end-start)
				for j := int(start); j < int(end); j++ {
					m[keys(j).(string)] = items(j)
				}
				return m
			}
		}
		return func(i int) any {
			start, end := a.ValueOffsets(i)
			m := make(map[any]any, end-start)
			for j := int(start); j < int(end); j++ {
				m[keys(j)] = items(j)
			}
			return m
		}
	case *array.List:
		elems := Reader(a.ListValues(), loc)
		return func(i int) any {
			start, end := a.ValueOffsets(i)
			s := make([]any, 0, end-start)
			for j := int(start); j < int(end); j++ {
				s = append(s, elems(j))
			}
			return s
		}
	}
	return nil
}
