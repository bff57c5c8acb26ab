package avro

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	avrolib "github.com/twmb/avro"

	"github.com/wsql/wsql/exec/format"
)

// compileRecord resolves the writer's record w against the columns of
// builders bs (fields): the steps that read a message written with w into
// them. col names the column the record is (at the top level "").
func compileRecord(w *avrolib.SchemaNode, fields []arrow.Field, bs []array.Builder, col string) (*record, error) {
	if w.Type != "record" && w.Type != "error" {
		return nil, fmt.Errorf("the writer's schema is %s, not a record", describe(w))
	}
	p := &record{top: col == ""}
	used := make([]bool, len(fields))
	for k := range w.Fields {
		wf := &w.Fields[k]
		i := fieldIndex(fields, wf)
		if i < 0 {
			s, err := compileSkip(&wf.Type)
			if err != nil {
				return nil, err
			}
			p.fields, p.names = append(p.fields, s), append(p.names, "")
			continue
		}
		used[i] = true
		name := fields[i].Name
		if col != "" {
			name = col + "." + name
		}
		s, err := compile(&wf.Type, fields[i], bs[i], name)
		if err != nil {
			return nil, err
		}
		p.fields, p.names = append(p.fields, s), append(p.names, fields[i].Name)
	}
	for i, f := range fields {
		if used[i] {
			continue
		}
		name := f.Name
		if col != "" {
			name = col + "." + name
		}
		if !f.Nullable {
			return nil, fmt.Errorf("the writer's schema has no field %s, and column %s is NOT NULL", f.Name, name)
		}
		p.missing = append(p.missing, &nullOnly{builderNull{bs[i]}})
	}
	return p, nil
}

// fieldIndex is the column a writer's field is read into: by its name or
// an alias; -1 for none.
func fieldIndex(fields []arrow.Field, wf *avrolib.SchemaField) int {
	for i, f := range fields {
		if f.Name == wf.Name {
			return i
		}
	}
	for _, a := range wf.Aliases {
		for i, f := range fields {
			if f.Name == a {
				return i
			}
		}
	}
	return -1
}

// compile is the step that reads a value of the writer's type w into the
// column f (builder b), named col in errors.
func compile(w *avrolib.SchemaNode, f arrow.Field, b array.Builder, col string) (step, error) {
	notNull := ""
	if !f.Nullable {
		notNull = col
	}
	switch w.Type {
	case "union":
		u := &unionStep{target: nil, notNull: notNull}
		resolved := 0
		var firstErr error
		for k := range w.Branches {
			br := &w.Branches[k]
			if br.Type == "null" {
				u.branches = append(u.branches, nil)
				resolved++
				continue
			}
			s, err := compileValue(br, f, b, col)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				s = &failStep{builderNull{b}, fmt.Sprintf("the writer's union branch %d (%s) cannot be read into column %s of type %s", k, describe(br), col, format.SQLTypeName(f.Type))}
			} else {
				resolved++
			}
			u.branches = append(u.branches, s)
		}
		if firstErr != nil && resolved == 0 || firstErr != nil && len(w.Branches) == 1 {
			return nil, firstErr
		}
		u.target = &nullOnly{builderNull{b}}
		return u, nil
	case "null":
		return &nullStep{target: &nullOnly{builderNull{b}}, notNull: notNull}, nil
	}
	return compileValue(w, f, b, col)
}

// compileValue is compile of a writer type that is neither a union nor
// null.
func compileValue(w *avrolib.SchemaNode, f arrow.Field, b array.Builder, col string) (step, error) {
	cannot := func() (step, error) {
		return nil, fmt.Errorf("the writer's %s cannot be read into column %s of type %s", describe(w), col, format.SQLTypeName(f.Type))
	}
	if w.Type == "null" || w.Type == "union" {
		return compile(w, f, b, col)
	}
	bn := builderNull{b}
	switch t := f.Type.(type) {
	case *arrow.BooleanType:
		if w.Type == "boolean" {
			return &boolStep{bn, b.(*array.BooleanBuilder)}, nil
		}
	case *arrow.Int8Type:
		if w.Type == "int" {
			return &intStep{builderNull: bn, bits: 8, b8: b.(*array.Int8Builder)}, nil
		}
	case *arrow.Int16Type:
		if w.Type == "int" {
			return &intStep{builderNull: bn, bits: 16, b16: b.(*array.Int16Builder)}, nil
		}
	case *arrow.Int32Type:
		if w.Type == "int" {
			return &intStep{builderNull: bn, bits: 32, b32: b.(*array.Int32Builder)}, nil
		}
	case *arrow.Int64Type:
		if w.Type == "int" || w.Type == "long" {
			return &intStep{builderNull: bn, bits: 64, b64: b.(*array.Int64Builder)}, nil
		}
	case *arrow.Float32Type:
		if w.Type == "int" || w.Type == "long" || w.Type == "float" {
			return &floatStep{builderNull: bn, wkind: w.Type, b32: b.(*array.Float32Builder)}, nil
		}
	case *arrow.Float64Type:
		if w.Type == "int" || w.Type == "long" || w.Type == "float" || w.Type == "double" {
			return &floatStep{builderNull: bn, wkind: w.Type, b64: b.(*array.Float64Builder)}, nil
		}
	case *arrow.StringType:
		switch w.Type {
		case "string", "bytes":
			return &textStep{builderNull: bn, size: -1, str: b.(*array.StringBuilder)}, nil
		case "enum":
			return &enumStep{bn, w.Symbols, b.(*array.StringBuilder)}, nil
		}
	case *arrow.BinaryType:
		switch w.Type {
		case "string", "bytes":
			return &textStep{builderNull: bn, size: -1, bin: b.(*array.BinaryBuilder)}, nil
		case "fixed":
			return &textStep{builderNull: bn, size: w.Size, bin: b.(*array.BinaryBuilder)}, nil
		}
	case *arrow.Decimal128Type:
		if w.LogicalType == "decimal" && (w.Type == "bytes" || w.Type == "fixed") {
			size := -1
			if w.Type == "fixed" {
				size = w.Size
			}
			return &decimalStep{builderNull: bn, size: size, from: int32(w.Scale), to: t.Scale, prec: t.Precision, b: b.(*array.Decimal128Builder)}, nil
		}
	case *arrow.Date32Type:
		if w.Type == "int" {
			return &dateStep{bn, b.(*array.Date32Builder)}, nil
		}
	case *arrow.Time32Type:
		tb := b.(*array.Time32Builder)
		div := int64(1)
		if t.Unit == arrow.Second {
			div = 1000
		}
		switch {
		case w.Type == "int" && (w.LogicalType == "time-millis" || w.LogicalType == ""):
			return &scaledStep{builderNull: bn, mul: 1, div: div, t32: tb}, nil
		case w.Type == "long" && w.LogicalType == "time-micros":
			return &scaledStep{builderNull: bn, mul: 1, div: div * 1000, t32: tb}, nil
		}
	case *arrow.TimestampType:
		if w.Type != "long" {
			break
		}
		per := map[string]int64{"": 1000, "timestamp-millis": 1000, "local-timestamp-millis": 1000,
			"timestamp-micros": 1000_000, "local-timestamp-micros": 1000_000,
			"timestamp-nanos": 1000_000_000, "local-timestamp-nanos": 1000_000_000}[w.LogicalType]
		if per == 0 {
			break
		}
		want := map[arrow.TimeUnit]int64{arrow.Second: 1, arrow.Millisecond: 1000, arrow.Microsecond: 1000_000, arrow.Nanosecond: 1000_000_000}[t.Unit]
		s := &scaledStep{builderNull: bn, mul: 1, div: 1, ts: b.(*array.TimestampBuilder)}
		if want >= per {
			s.mul = want / per
		} else {
			s.div = per / want
		}
		return s, nil
	case *arrow.StructType:
		if w.Type != "record" && w.Type != "error" {
			break
		}
		sb := b.(*array.StructBuilder)
		bs := make([]array.Builder, sb.NumField())
		for i := range bs {
			bs[i] = sb.FieldBuilder(i)
		}
		rec, err := compileRecord(w, t.Fields(), bs, col)
		if err != nil {
			return nil, err
		}
		return &structStep{bn, rec, sb}, nil
	case *arrow.ListType:
		if w.Type != "array" || w.Items == nil {
			break
		}
		lb := b.(*array.ListBuilder)
		item, err := compile(w.Items, t.ElemField(), lb.ValueBuilder(), col+"[]")
		if err != nil {
			return nil, err
		}
		return &listStep{bn, item, lb}, nil
	case *arrow.MapType:
		if w.Type != "map" || w.Values == nil || t.KeyType().ID() != arrow.STRING {
			break
		}
		mb := b.(*array.MapBuilder)
		value, err := compile(w.Values, t.ItemField(), mb.ItemBuilder(), col+"[]")
		if err != nil {
			return nil, err
		}
		return &mapStep{bn, mb.KeyBuilder().(*array.StringBuilder), value, mb}, nil
	}
	return cannot()
}

// describe names a writer's type in errors: int, long
// (timestamp-millis), record User.
func describe(w *avrolib.SchemaNode) string {
	switch {
	case w.Type == "record" || w.Type == "enum" || w.Type == "fixed":
		return w.Type + " " + w.Name
	case w.Type == "union":
		var parts []string
		for k := range w.Branches {
			parts = append(parts, describe(&w.Branches[k]))
		}
		return "union [" + strings.Join(parts, ", ") + "]"
	case w.LogicalType != "":
		return w.Type + " (" + w.LogicalType + ")"
	}
	return w.Type
}
