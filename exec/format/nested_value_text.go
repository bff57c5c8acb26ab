package format

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Nested values as text, as Flink casts them to STRING and so prints them
// in the print sink and the SQL client (its RowToStringCastRule,
// ArrayToStringCastRule and MapAndMultisetToStringCastRule): a ROW as
// (1, ann), an ARRAY as [1, 2], a MAP as {k=1, j=2} and a MULTISET as
// {element=count}; a NULL field, element, key or value is null.

// nestedValueAppender returns the text formatter of a struct, list or map
// array (nil for other arrays); the formatters of the children are chosen
// once, here.
func nestedValueAppender(arr arrow.Array, loc *time.Location) func(dst []byte, i int) []byte {
	switch a := arr.(type) {
	case *array.Struct:
		fields := make([]func([]byte, int) []byte, a.NumField())
		for k := range fields {
			fields[k] = nullableText(a.Field(k), loc)
		}
		return func(dst []byte, i int) []byte {
			dst = append(dst, '(')
			for k, f := range fields {
				if k > 0 {
					dst = append(dst, ", "...)
				}
				dst = f(dst, i)
			}
			return append(dst, ')')
		}
	case *array.Map:
		keys, items := nullableText(a.Keys(), loc), nullableText(a.Items(), loc)
		return func(dst []byte, i int) []byte {
			dst = append(dst, '{')
			start, end := a.ValueOffsets(i)
			for j := start; j < end; j++ {
				if j > start {
					dst = append(dst, ", "...)
				}
				dst = keys(dst, int(j))
				dst = append(dst, '=')
				dst = items(dst, int(j))
			}
			return append(dst, '}')
		}
	case *array.List:
		elems := nullableText(a.ListValues(), loc)
		return func(dst []byte, i int) []byte {
			dst = append(dst, '[')
			start, end := a.ValueOffsets(i)
			for j := start; j < end; j++ {
				if j > start {
					dst = append(dst, ", "...)
				}
				dst = elems(dst, int(j))
			}
			return append(dst, ']')
		}
	}
	return nil
}

// nullableText is arr's formatter that writes null for a NULL value.
func nullableText(arr arrow.Array, loc *time.Location) func([]byte, int) []byte {
	app := ValueAppender(arr, loc)
	return func(dst []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(dst, "null"...)
		}
		return app(dst, i)
	}
}

// nestedJSONAppender returns the JSON formatter of a struct, list or map
// array (nil for other arrays): a ROW as an object of its fields, an ARRAY
// as an array, a MAP or MULTISET as an object (a key that is not a string
// written as the string of its text), NULL as null at any depth.
func nestedJSONAppender(arr arrow.Array, loc *time.Location, std TimestampStandard) func(dst []byte, i int) []byte {
	switch a := arr.(type) {
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		keys := make([][]byte, a.NumField())
		fields := make([]func([]byte, int) []byte, a.NumField())
		for k := range fields {
			keys[k] = append(AppendJSONString(nil, st.Field(k).Name), ':')
			fields[k] = nullableJSON(a.Field(k), loc, std)
		}
		return func(dst []byte, i int) []byte {
			dst = append(dst, '{')
			for k, f := range fields {
				if k > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, keys[k]...)
				dst = f(dst, i)
			}
			return append(dst, '}')
		}
	case *array.Map:
		keys, items := a.Keys(), nullableJSON(a.Items(), loc, std)
		keyText := JSONValueAppender(keys, loc, std)
		if _, ok := keys.(*array.String); !ok {
			text := ValueAppender(keys, loc)
			keyText = func(dst []byte, j int) []byte {
				start := len(dst)
				dst = text(dst, j)
				s := string(dst[start:]) // a non-string key: rare, allocates
				return AppendJSONString(dst[:start], s)
			}
		}
		return func(dst []byte, i int) []byte {
			dst = append(dst, '{')
			start, end := a.ValueOffsets(i)
			for j := start; j < end; j++ {
				if j > start {
					dst = append(dst, ',')
				}
				dst = keyText(dst, int(j))
				dst = append(dst, ':')
				dst = items(dst, int(j))
			}
			return append(dst, '}')
		}
	case *array.List:
		elems := nullableJSON(a.ListValues(), loc, std)
		return func(dst []byte, i int) []byte {
			dst = append(dst, '[')
			start, end := a.ValueOffsets(i)
			for j := start; j < end; j++ {
				if j > start {
					dst = append(dst, ',')
				}
				dst = elems(dst, int(j))
			}
			return append(dst, ']')
		}
	}
	return nil
}

func nullableJSON(arr arrow.Array, loc *time.Location, std TimestampStandard) func([]byte, int) []byte {
	app := JSONValueAppender(arr, loc, std)
	return func(dst []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(dst, "null"...)
		}
		return app(dst, i)
	}
}
