package writer

import (
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/format"
)

// csvElementAppender writes what Flink's csv format writes differently
// from Flink's text of a value: an ARRAY or a ROW as its elements (a
// ROW's fields in order) as their csv text, separated by delim, a NULL
// element as an empty one, which the csv decoder reads back as NULL; an
// interval as its number of months or milliseconds. Other columns keep
// app. The elements' appenders are chosen once per batch.
func csvElementAppender(arr arrow.Array, loc *time.Location, delim string, app func([]byte, int) []byte) func([]byte, int) []byte {
	switch a := arr.(type) {
	case *array.Duration:
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(a.Value(i)), 10) }
	case *array.MonthInterval:
		return func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(a.Value(i)), 10) }
	case *array.List:
		values := a.ListValues()
		elem := format.CSVValueAppender(values, loc)
		return func(b []byte, i int) []byte {
			start, end := a.ValueOffsets(i)
			for j := start; j < end; j++ {
				if j > start {
					b = append(b, delim...)
				}
				if values.IsValid(int(j)) {
					b = elem(b, int(j))
				}
			}
			return b
		}
	case *array.Struct:
		fields := make([]func([]byte, int) []byte, a.NumField())
		for k := range fields {
			fields[k] = format.CSVValueAppender(a.Field(k), loc)
		}
		return func(b []byte, i int) []byte {
			for k, f := range fields {
				if k > 0 {
					b = append(b, delim...)
				}
				if a.Field(k).IsValid(i) {
					b = f(b, i)
				}
			}
			return b
		}
	}
	return app
}
