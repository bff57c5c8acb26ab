package jsonfn

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// JSON_STRING, JSON_OBJECT and JSON_ARRAY write SQL values as JSON the way
// Flink's code generation builds Jackson nodes from them: numbers as
// numbers (DOUBLE as Java prints it), BOOLEAN as true/false, DATE, TIME
// and TIMESTAMP as ISO-8601 text, BINARY as base64, ARRAY as an array,
// ROW and MAP as objects; an object's keys are sorted when written.

// Build is JSON_STRING(x), JSON_OBJECT(KEY k VALUE v, ...) or
// JSON_ARRAY(v, ...).
type Build struct {
	Name string // JSON_STRING, JSON_OBJECT or JSON_ARRAY
	// Args are the values; JSON_OBJECT's are key, value, key, value ...
	Args []expr.Expr
	// Raw marks values that are JSON text already (a nested JSON_OBJECT
	// or JSON_ARRAY call), inserted as they are.
	Raw []bool
	// AbsentOnNull leaves out NULL values instead of writing null.
	AbsentOnNull bool
}

func (e *Build) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *Build) Children() []expr.Expr    { return e.Args }
func (e *Build) CanFail() bool            { return e.Name == "JSON_OBJECT" }
func (e *Build) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return e.Name + "(" + strings.Join(args, ", ") + ")"
}

func (e *Build) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	cols := make([]arrow.Array, len(e.Args))
	defer func() { expr.ReleaseAll(cols) }()
	for i, x := range e.Args {
		a, err := x.Eval(rec, mem)
		if err != nil {
			return nil, err
		}
		cols[i] = a
	}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	var j jsonWriter
	var buf []byte
	for i := range n {
		switch e.Name {
		case "JSON_STRING":
			if cols[0].IsNull(i) {
				b.AppendNull()
				continue
			}
			buf = j.value(buf[:0], cols[0], i, 0)
		case "JSON_ARRAY":
			buf = append(buf[:0], '[')
			first := true
			for k, c := range cols {
				if c.IsNull(i) && e.AbsentOnNull {
					continue
				}
				if !first {
					buf = append(buf, ',')
				}
				first = false
				buf = j.item(buf, c, i, e.Raw[k])
			}
			buf = append(buf, ']')
		default: // JSON_OBJECT
			o := j.level(0)
			for k := 0; k+1 < len(cols); k += 2 {
				if cols[k].IsNull(i) {
					return nil, fmt.Errorf("%w: JSON_OBJECT: a key is NULL", expr.ErrEval)
				}
				if cols[k+1].IsNull(i) && e.AbsentOnNull {
					continue
				}
				ks := len(o.keys)
				o.keys = append(o.keys, stringAt(cols[k], i)...)
				vs := len(o.vals)
				o.vals = j.item(o.vals, cols[k+1], i, e.Raw[k+1])
				o.ents = append(o.ents, entry{span{ks, len(o.keys)}, span{vs, len(o.vals)}})
			}
			buf = o.flush(buf[:0])
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

func stringAt(a arrow.Array, i int) string {
	if s, ok := a.(*array.String); ok {
		return s.Value(i)
	}
	return a.ValueStr(i)
}

// jsonWriter writes SQL values as JSON; its objects are built per depth
// so nested ones do not disturb their parent's buffers.
type jsonWriter struct{ levels []*objectBuf }

type entry struct{ key, val span }

// objectBuf collects an object's members to sort them by key.
type objectBuf struct {
	keys, vals []byte
	ents       []entry
}

func (j *jsonWriter) level(d int) *objectBuf {
	for len(j.levels) <= d {
		j.levels = append(j.levels, &objectBuf{})
	}
	return j.levels[d]
}

// flush appends the object, its keys sorted (the last of duplicates
// kept), and empties the buffer.
func (o *objectBuf) flush(dst []byte) []byte {
	slices.SortStableFunc(o.ents, func(a, b entry) int {
		return bytes.Compare(o.keys[a.key.start:a.key.end], o.keys[b.key.start:b.key.end])
	})
	dst = append(dst, '{')
	first := true
	for k, en := range o.ents {
		key := o.keys[en.key.start:en.key.end]
		if k+1 < len(o.ents) && bytes.Equal(key, o.keys[o.ents[k+1].key.start:o.ents[k+1].key.end]) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendQuoted(dst, key)
		dst = append(dst, ':')
		dst = append(dst, o.vals[en.val.start:en.val.end]...)
	}
	o.keys, o.vals, o.ents = o.keys[:0], o.vals[:0], o.ents[:0]
	return append(dst, '}')
}

// item appends a JSON_OBJECT or JSON_ARRAY value: JSON text as it is
// when raw.
func (j *jsonWriter) item(dst []byte, a arrow.Array, i int, raw bool) []byte {
	if raw && !a.IsNull(i) {
		return append(dst, stringAt(a, i)...)
	}
	return j.value(dst, a, i, 1)
}

// value appends row i of a as JSON; depth is the object level to use.
func (j *jsonWriter) value(dst []byte, a arrow.Array, i, depth int) []byte {
	if a.IsNull(i) {
		return append(dst, "null"...)
	}
	switch a := a.(type) {
	case *array.String:
		return appendQuoted(dst, a.Value(i))
	case *array.LargeString:
		return appendQuoted(dst, a.Value(i))
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(i))
	case *array.Int8:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(i), 10)
	case *array.Float32:
		return AppendJavaDouble(dst, float64(a.Value(i)), 32)
	case *array.Float64:
		return AppendJavaDouble(dst, a.Value(i), 64)
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return appendNumber(dst, a.Value(i).ToString(scale))
	case *array.Date32:
		return appendQuoted(dst, a.Value(i).ToTime().Format("2006-01-02"))
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		t := a.Value(i).ToTime(dt.Unit)
		if dt.TimeZone != "" {
			return appendQuoted(dst, isoInstant(t))
		}
		return appendQuoted(dst, isoLocal(t, "2006-01-02T15:04:05"))
	case *array.Time32:
		return appendQuoted(dst, isoLocal(a.Value(i).ToTime(a.DataType().(*arrow.Time32Type).Unit), "15:04:05"))
	case *array.Time64:
		return appendQuoted(dst, isoLocal(a.Value(i).ToTime(a.DataType().(*arrow.Time64Type).Unit), "15:04:05"))
	case *array.Binary:
		return appendQuoted(dst, base64.StdEncoding.EncodeToString(a.Value(i)))
	case *array.List:
		start, end := a.ValueOffsets(i)
		dst = append(dst, '[')
		for k := start; k < end; k++ {
			if k > start {
				dst = append(dst, ',')
			}
			dst = j.value(dst, a.ListValues(), int(k), depth+1)
		}
		return append(dst, ']')
	case *array.Map:
		start, end := a.ValueOffsets(i)
		o := j.level(depth)
		for k := start; k < end; k++ {
			ks := len(o.keys)
			o.keys = append(o.keys, stringAt(a.Keys(), int(k))...)
			vs := len(o.vals)
			o.vals = j.value(o.vals, a.Items(), int(k), depth+1)
			o.ents = append(o.ents, entry{span{ks, len(o.keys)}, span{vs, len(o.vals)}})
		}
		return o.flush(dst)
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		o := j.level(depth)
		for f := 0; f < a.NumField(); f++ {
			ks := len(o.keys)
			o.keys = append(o.keys, st.Field(f).Name...)
			vs := len(o.vals)
			o.vals = j.value(o.vals, a.Field(f), i, depth+1)
			o.ents = append(o.ents, entry{span{ks, len(o.keys)}, span{vs, len(o.vals)}})
		}
		return o.flush(dst)
	}
	return appendQuoted(dst, a.ValueStr(i))
}

// isoLocal is Java's ISO_LOCAL_DATE_TIME / ISO_LOCAL_TIME: the fraction
// only as long as it needs to be.
func isoLocal(t time.Time, layout string) string {
	s := t.Format(layout)
	if ns := t.Nanosecond(); ns != 0 {
		f := strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
		s += "." + f
	}
	return s
}

// isoInstant is Java's ISO_INSTANT: UTC, the fraction in groups of three.
func isoInstant(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02T15:04:05")
	if ns := t.Nanosecond(); ns != 0 {
		f := fmt.Sprintf("%09d", ns)
		for strings.HasSuffix(f, "000") {
			f = f[:len(f)-3]
		}
		s += "." + f
	}
	return s + "Z"
}
