package datagen

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// Flink's datagen defaults.
const (
	defaultRowsPerSecond = 10000
	defaultStringLength  = 100
)

// planDatagenSource plans Flink's 'datagen' connector over the table's
// physical columns: each random (the default) or a sequence, the source
// bounded by 'number-of-rows' or by a sequence's end, else unbounded.
//
// Defaults: a random integer spans its type (as Flink), a DECIMAL its
// precision (up to 18 digits), FLOAT and DOUBLE [0, 1] (Flink's span the
// whole type, of little use), a STRING is 100 random hex digits, and
// TIMESTAMP, TIMESTAMP_LTZ and DATE are "now" by the injected clock, or
// random within 'max-past' before it (DATE too, in whole days). A sequence
// needs 'start' and 'end' and suits integers, DECIMAL (whole numbers),
// FLOAT, DOUBLE and STRING (the number as text).
//
// Pacing: 'rows-per-second' (default 10000, as Flink; 0 for no limit)
// paces the read only under the system clock (Env.Clock nil or
// rowtime.SystemClock). Under any other clock, such as the manual clock of
// tests, rows come as fast as they are asked for, so a test never sleeps;
// the rows themselves are the same either way.
func planSource(t *catalog.Table, _ sql.Option, opts *connector.Env) (exec.Source, error) {
	schema := connector.SourceSchema(t)
	var physical []string
	for _, f := range schema.Fields() {
		physical = append(physical, f.Name)
	}
	g := &Source{NumberOfRows: -1, RowsPerSecond: defaultRowsPerSecond, Clock: opts.Clock, Location: opts.Location}
	fieldOpts := make(map[string]map[string]sql.Option)
	for _, o := range t.Options {
		var err error
		switch o.Key {
		case "connector":
		case "number-of-rows":
			g.NumberOfRows, err = connector.NonNegativeInt(o)
		case "rows-per-second":
			g.RowsPerSecond, err = connector.NonNegativeInt(o)
		case "seed":
			g.Seed, err = connector.Int(o)
		default:
			name, suffix, ok := splitFieldOption(o.Key)
			if !ok {
				known := append(append([]string(nil), datagenOptions...), "fields.<column>.kind")
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'datagen'%s", o.Key, sql.DidYouMean(o.Key, known))
			}
			if !connector.Contains(physical, name) {
				if i := t.Column(name); i >= 0 && t.Columns[i].Name == name {
					return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s': column %s is computed, datagen generates only physical columns", o.Key, name)
				}
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s': table %s has no physical column %s%s", o.Key, t.Name, name, sql.DidYouMean(name, physical))
			}
			if !connector.Contains(datagenFieldOptions, suffix) {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'datagen' (field options: %s)%s",
					o.Key, strings.Join(datagenFieldOptions, ", "), sql.DidYouMean(suffix, datagenFieldOptions))
			}
			if fieldOpts[name] == nil {
				fieldOpts[name] = map[string]sql.Option{}
			}
			fieldOpts[name][suffix] = o
		}
		if err != nil {
			return nil, err
		}
	}
	g.Throttle = opts.SystemClock()
	for _, f := range schema.Fields() {
		fd, err := datagenField(t, f, fieldOpts[f.Name])
		if err != nil {
			return nil, err
		}
		g.Fields = append(g.Fields, fd)
	}
	return &exec.MakerSource{Maker: g, SourceSpec: exec.SourceSpec{Schema: schema, BatchSize: opts.BatchSize}}, nil
}

// splitFieldOption splits 'fields.<column>.<option>'; a column name may
// itself contain dots.
func splitFieldOption(key string) (name, suffix string, ok bool) {
	rest, found := strings.CutPrefix(key, "fields.")
	if !found {
		return "", "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || i == len(rest)-1 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}

// datagenField resolves one column's generator from its options.
func datagenField(t *catalog.Table, f arrow.Field, o map[string]sql.Option) (Field, error) {
	fd := Field{Name: f.Name}
	colAt := t.At
	if i := t.Column(f.Name); i >= 0 {
		colAt = t.Columns[i].At
	}
	if kind, ok := o["kind"]; ok {
		switch strings.ToLower(kind.Value) {
		case "random":
		case "sequence":
			fd.Sequence = true
		default:
			return fd, sql.Errorf(sql.ErrInvalid, kind.At, "option '%s' must be 'random' or 'sequence', got '%s'", kind.Key, kind.Value)
		}
	}
	typeName := catalogTypeName(t, f.Name)
	// allowed lists the field options the column's type and kind take.
	var allowed []string
	var intLo, intHi int64 // the type's range, for integers
	isInt, isFloat, isDecimal := false, false, false
	switch ty := f.Type.(type) {
	case *arrow.Int8Type:
		isInt, intLo, intHi = true, math.MinInt8, math.MaxInt8
	case *arrow.Int16Type:
		isInt, intLo, intHi = true, math.MinInt16, math.MaxInt16
	case *arrow.Int32Type:
		isInt, intLo, intHi = true, math.MinInt32, math.MaxInt32
	case *arrow.Int64Type:
		isInt, intLo, intHi = true, math.MinInt64, math.MaxInt64
	case *arrow.Float32Type, *arrow.Float64Type:
		isFloat = true
	case *arrow.Decimal128Type:
		isDecimal = true
		digits := min(ty.Precision, 18)
		intHi = int64(math.Pow10(int(digits))) - 1
		intLo = -intHi
	case *arrow.StringType, *arrow.BooleanType, *arrow.Date32Type, *arrow.TimestampType:
	default:
		return fd, sql.Errorf(sql.ErrUnsupported, colAt, "connector 'datagen' cannot generate column %s of type %s", f.Name, typeName)
	}
	_, isString := f.Type.(*arrow.StringType)
	_, isBool := f.Type.(*arrow.BooleanType)
	_, isDate := f.Type.(*arrow.Date32Type)
	_, isTime := f.Type.(*arrow.TimestampType)
	switch {
	case fd.Sequence && (isBool || isDate || isTime):
		return fd, sql.Errorf(sql.ErrInvalid, o["kind"].At, "kind 'sequence' is not supported for column %s of type %s (only numbers and strings)", f.Name, typeName)
	case fd.Sequence:
		allowed = []string{"kind", "start", "end"}
	case isInt || isFloat || isDecimal:
		allowed = []string{"kind", "min", "max"}
	case isString:
		allowed = []string{"kind", "length"}
	case isDate || isTime:
		allowed = []string{"kind", "max-past"}
	default:
		allowed = []string{"kind"}
	}
	for _, suffix := range datagenFieldOptions {
		if opt, ok := o[suffix]; ok && !connector.Contains(allowed, suffix) {
			kind := "random"
			if fd.Sequence {
				kind = "sequence"
			}
			return fd, sql.Errorf(sql.ErrInvalid, opt.At, "option '%s' does not apply to column %s of type %s with kind '%s' (it takes: %s)",
				opt.Key, f.Name, typeName, kind, strings.Join(prefixAll("fields."+f.Name+".", allowed), ", "))
		}
	}
	var err error
	switch {
	case fd.Sequence:
		start, okS := o["start"]
		end, okE := o["end"]
		if !okS || !okE {
			at := o["kind"].At
			return fd, sql.Errorf(sql.ErrInvalid, at, "kind 'sequence' of column %s needs both 'fields.%s.start' and 'fields.%s.end'", f.Name, f.Name, f.Name)
		}
		if fd.Start, err = connector.Int(start); err != nil {
			return fd, err
		}
		if fd.End, err = connector.Int(end); err != nil {
			return fd, err
		}
		if fd.End < fd.Start {
			return fd, sql.Errorf(sql.ErrInvalid, end.At, "option '%s' (%d) is less than '%s' (%d)", end.Key, fd.End, start.Key, fd.Start)
		}
		if isDecimal {
			// A DECIMAL sequence counts whole numbers: start, start+1, ...
			scale := f.Type.(*arrow.Decimal128Type).Scale
			if _, _, err := decimalBounds(start, end, scale, intLo, intHi); err != nil {
				return fd, err
			}
		}
		if isInt {
			for _, x := range []struct {
				v   int64
				opt sql.Option
			}{{fd.Start, start}, {fd.End, end}} {
				if x.v < intLo || x.v > intHi {
					return fd, sql.Errorf(sql.ErrInvalid, x.opt.At, "option '%s' (%d) is out of range for %s", x.opt.Key, x.v, typeName)
				}
			}
		}
	case isInt:
		fd.Min, fd.Max = intLo, intHi
		for _, b := range []struct {
			suffix string
			dst    *int64
		}{{"min", &fd.Min}, {"max", &fd.Max}} {
			dst := b.dst
			opt, ok := o[b.suffix]
			if !ok {
				continue
			}
			if *dst, err = connector.Int(opt); err != nil {
				return fd, err
			}
			if *dst < intLo || *dst > intHi {
				return fd, sql.Errorf(sql.ErrInvalid, opt.At, "option '%s' (%d) is out of range for %s", opt.Key, *dst, typeName)
			}
		}
		if fd.Min > fd.Max {
			return fd, minMaxError(o)
		}
	case isFloat:
		fd.MinF, fd.MaxF = 0, 1 // wsql's default: Flink's spans the whole type, of little use
		for _, b := range []struct {
			suffix string
			dst    *float64
		}{{"min", &fd.MinF}, {"max", &fd.MaxF}} {
			dst := b.dst
			opt, ok := o[b.suffix]
			if !ok {
				continue
			}
			v, perr := strconv.ParseFloat(strings.TrimSpace(opt.Value), 64)
			if perr != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				return fd, sql.Errorf(sql.ErrInvalid, opt.At, "option '%s' must be a number, got '%s'", opt.Key, opt.Value)
			}
			*dst = v
		}
		if fd.MinF > fd.MaxF {
			return fd, minMaxError(o)
		}
	case isDecimal:
		scale := f.Type.(*arrow.Decimal128Type).Scale
		lo, hi, err := decimalBounds(o["min"], o["max"], scale, intLo, intHi)
		if err != nil {
			return fd, err
		}
		fd.Min, fd.Max = intLo, intHi
		if lo != nil {
			fd.Min = *lo
		}
		if hi != nil {
			fd.Max = *hi
		}
		if fd.Min > fd.Max {
			return fd, minMaxError(o)
		}
	case isString:
		fd.Length = defaultStringLength
		if opt, ok := o["length"]; ok {
			n, err := connector.NonNegativeInt(opt)
			if err != nil {
				return fd, err
			}
			if n > 1<<20 {
				return fd, sql.Errorf(sql.ErrInvalid, opt.At, "option '%s' (%d) is too large (at most 1048576)", opt.Key, n)
			}
			fd.Length = int(n)
		}
	case isDate || isTime:
		if opt, ok := o["max-past"]; ok {
			if fd.MaxPast, err = connector.Duration(opt); err != nil {
				return fd, err
			}
		}
	}
	return fd, nil
}

// decimalBounds reads DECIMAL bounds as unscaled values of the column's
// scale; a missing option gives nil.
func decimalBounds(lo, hi sql.Option, scale int32, min, max int64) (*int64, *int64, error) {
	read := func(o sql.Option) (*int64, error) {
		if o.Key == "" {
			return nil, nil
		}
		r, ok := new(big.Rat).SetString(strings.TrimSpace(o.Value))
		if !ok {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a number, got '%s'", o.Key, o.Value)
		}
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
		q := new(big.Int).Quo(r.Num(), r.Denom())
		if !q.IsInt64() || q.Int64() < min || q.Int64() > max {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' (%s) is out of range for the column's DECIMAL type", o.Key, o.Value)
		}
		v := q.Int64()
		return &v, nil
	}
	a, err := read(lo)
	if err != nil {
		return nil, nil, err
	}
	b, err := read(hi)
	return a, b, err
}

func minMaxError(o map[string]sql.Option) error {
	mx := o["max"]
	return sql.Errorf(sql.ErrInvalid, mx.At, "option '%s' (%s) is less than '%s' (%s)", mx.Key, mx.Value, o["min"].Key, o["min"].Value)
}

func prefixAll(prefix string, list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = prefix + s
	}
	return out
}

// catalogTypeName is the SQL type of a column as declared.
func catalogTypeName(t *catalog.Table, name string) string {
	if i := t.Column(name); i >= 0 {
		return t.Columns[i].SQLType
	}
	return name
}
