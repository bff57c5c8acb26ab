package rowstore

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/expr"
)

// gatherColumn builds column c of the rows at places, reading the chunks'
// typed arrays value by value: rows come from many chunks in any order
// (a deduplication's old row and new row alternate), where a take per run
// of one chunk would cost a take per row. Types without a case here go
// by runs (gatherRuns).
func (s *Store) gatherColumn(c int, places []place) (arrow.Array, error) {
	dt := s.schema.Field(c).Type
	switch dt.ID() {
	case arrow.INT8:
		return gatherFixed[int8, *array.Int8](s, c, places, dt)
	case arrow.INT16:
		return gatherFixed[int16, *array.Int16](s, c, places, dt)
	case arrow.INT32:
		return gatherFixed[int32, *array.Int32](s, c, places, dt)
	case arrow.INT64:
		return gatherFixed[int64, *array.Int64](s, c, places, dt)
	case arrow.FLOAT32:
		return gatherFixed[float32, *array.Float32](s, c, places, dt)
	case arrow.FLOAT64:
		return gatherFixed[float64, *array.Float64](s, c, places, dt)
	case arrow.DATE32:
		return gatherFixed[arrow.Date32, *array.Date32](s, c, places, dt)
	case arrow.TIME32:
		return gatherFixed[arrow.Time32, *array.Time32](s, c, places, dt)
	case arrow.TIME64:
		return gatherFixed[arrow.Time64, *array.Time64](s, c, places, dt)
	case arrow.TIMESTAMP:
		return gatherFixed[arrow.Timestamp, *array.Timestamp](s, c, places, dt)
	case arrow.STRING:
		return gatherStrings(s, c, places)
	}
	return s.gatherRuns(c, places)
}

// valueArray is a typed Arrow array of fixed-width values.
type valueArray[T any] interface {
	arrow.Array
	Values() []T
}

func gatherFixed[T any, A valueArray[T]](s *Store, c int, places []place, dt arrow.DataType) (arrow.Array, error) {
	n := len(places)
	vals := make([]T, n)
	var valid []bool
	// the typed column of the chunk of the previous row, which is
	// usually the next row's too
	last := int32(-1)
	var a A
	var values []T
	for i, p := range places {
		if p.chunk != last {
			last, a = p.chunk, s.chunks[p.chunk].Column(c).(A)
			values = a.Values()
		}
		if a.NullN() > 0 && a.IsNull(int(p.row)) {
			if valid == nil {
				valid = make([]bool, n)
				for j := range i {
					valid[j] = true
				}
			}
			continue
		}
		if valid != nil {
			valid[i] = true
		}
		vals[i] = values[p.row]
	}
	b := array.NewBuilder(s.mem, dt)
	defer b.Release()
	appendFixed(b, vals, valid)
	return b.NewArray(), nil
}

// appendFixed appends vals (valid: nil for all) to the typed builder b.
func appendFixed[T any](b array.Builder, vals []T, valid []bool) {
	switch b := b.(type) {
	case *array.Int8Builder:
		b.AppendValues(any(vals).([]int8), valid)
	case *array.Int16Builder:
		b.AppendValues(any(vals).([]int16), valid)
	case *array.Int32Builder:
		b.AppendValues(any(vals).([]int32), valid)
	case *array.Int64Builder:
		b.AppendValues(any(vals).([]int64), valid)
	case *array.Float32Builder:
		b.AppendValues(any(vals).([]float32), valid)
	case *array.Float64Builder:
		b.AppendValues(any(vals).([]float64), valid)
	case *array.Date32Builder:
		b.AppendValues(any(vals).([]arrow.Date32), valid)
	case *array.Time32Builder:
		b.AppendValues(any(vals).([]arrow.Time32), valid)
	case *array.Time64Builder:
		b.AppendValues(any(vals).([]arrow.Time64), valid)
	case *array.TimestampBuilder:
		b.AppendValues(any(vals).([]arrow.Timestamp), valid)
	}
}

func gatherStrings(s *Store, c int, places []place) (arrow.Array, error) {
	size := 0
	for _, p := range places {
		size += s.chunks[p.chunk].Column(c).(*array.String).ValueLen(int(p.row))
	}
	vals := make([]string, len(places))
	var valid []bool
	for i, p := range places {
		a := s.chunks[p.chunk].Column(c).(*array.String)
		if a.IsNull(int(p.row)) {
			if valid == nil {
				valid = make([]bool, len(places))
				for j := range i {
					valid[j] = true
				}
			}
			continue
		}
		if valid != nil {
			valid[i] = true
		}
		vals[i] = a.Value(int(p.row))
	}
	b := array.NewStringBuilder(s.mem)
	defer b.Release()
	b.AppendValues(vals, valid) // reserves once, appends unchecked
	return b.NewArray(), nil
}

// gatherRuns builds column c by one take per run of rows from one chunk,
// then joins the runs.
func (s *Store) gatherRuns(c int, places []place) (arrow.Array, error) {
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	rows := make([]int32, 0, len(places))
	for i := 0; i < len(places); {
		ch := places[i].chunk
		rows = rows[:0]
		for ; i < len(places) && places[i].chunk == ch; i++ {
			rows = append(rows, places[i].row)
		}
		part, err := expr.Take(s.chunks[ch].Column(c), rows, s.mem)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	return array.Concatenate(parts, s.mem)
}
