package avro

import (
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/exec/format"
)

// step reads one value of the writer's type and appends it to its
// column's builder (nothing while the reader is dry); null appends a NULL
// in its place.
type step interface {
	read(r *reader)
	null(r *reader)
}

type builderNull struct{ b array.Builder }

func (s builderNull) null(r *reader) {
	if !r.dry {
		s.b.AppendNull()
	}
}

type boolStep struct {
	builderNull
	b *array.BooleanBuilder
}

func (s *boolStep) read(r *reader) {
	v := r.boolean()
	if !r.dry {
		s.b.Append(v)
	}
}

// intStep reads an int or a long into an integer column of bits bits.
type intStep struct {
	builderNull
	bits int
	b8   *array.Int8Builder
	b16  *array.Int16Builder
	b32  *array.Int32Builder
	b64  *array.Int64Builder
}

func (s *intStep) read(r *reader) {
	at := r.i
	v := r.long()
	if s.bits < 64 {
		lim := int64(1) << (s.bits - 1)
		if v < -lim || v >= lim {
			r.fail(at, "%d is out of range of a %d-bit integer column", v, s.bits)
			return
		}
	}
	if r.dry || r.failed() {
		return
	}
	switch s.bits {
	case 8:
		s.b8.Append(int8(v))
	case 16:
		s.b16.Append(int16(v))
	case 32:
		s.b32.Append(int32(v))
	default:
		s.b64.Append(v)
	}
}

// floatStep reads an int, long, float or double (wkind) into a FLOAT or
// DOUBLE column.
type floatStep struct {
	builderNull
	wkind string
	b32   *array.Float32Builder
	b64   *array.Float64Builder
}

func (s *floatStep) read(r *reader) {
	var v float64
	switch s.wkind {
	case "int", "long":
		v = float64(r.long())
	case "float":
		v = float64(r.float())
	default:
		v = r.double()
	}
	if r.dry || r.failed() {
		return
	}
	if s.b32 != nil {
		s.b32.Append(float32(v))
	} else {
		s.b64.Append(v)
	}
}

// textStep reads a string or bytes (or a fixed of size bytes) into a
// STRING or BYTES column; a STRING's must be UTF-8.
type textStep struct {
	builderNull
	size int // a fixed's; -1 for a length first
	str  *array.StringBuilder
	bin  *array.BinaryBuilder
}

func (s *textStep) read(r *reader) {
	at := r.i
	v := r.sized(s.size)
	if r.failed() {
		return
	}
	if s.str != nil {
		if !utf8.Valid(v) {
			r.fail(at, "a string that is not valid UTF-8")
			return
		}
		if !r.dry {
			s.str.BinaryBuilder.Append(v)
		}
		return
	}
	if !r.dry {
		s.bin.Append(v)
	}
}

// enumStep reads an enum's symbol into a STRING column.
type enumStep struct {
	builderNull
	symbols []string
	b       *array.StringBuilder
}

func (s *enumStep) read(r *reader) {
	at := r.i
	k := r.long()
	if r.failed() {
		return
	}
	if k < 0 || k >= int64(len(s.symbols)) {
		r.fail(at, "enum symbol %d of %d", k, len(s.symbols))
		return
	}
	if !r.dry {
		s.b.Append(s.symbols[k])
	}
}

// decimalStep reads a decimal (bytes or a fixed: the unscaled value in
// big-endian two's complement) of scale from into a DECIMAL column.
type decimalStep struct {
	builderNull
	size     int // a fixed's; -1 for bytes
	from, to int32
	prec     int32
	b        *array.Decimal128Builder
}

func (s *decimalStep) read(r *reader) {
	at := r.i
	v := r.sized(s.size)
	if r.failed() {
		return
	}
	n, ok := bigEndianDecimal(v)
	if ok && s.from != s.to {
		n, ok = format.RescaleDecimal(n, s.from, s.to)
	}
	if !ok || !n.FitsInPrecision(s.prec) {
		r.fail(at, "a decimal that does not fit DECIMAL(%d, %d)", s.prec, s.to)
		return
	}
	if !r.dry {
		s.b.Append(n)
	}
}

// bigEndianDecimal is the two's complement integer of b; false when it
// needs more than 128 bits.
func bigEndianDecimal(b []byte) (decimal128.Num, bool) {
	if len(b) == 0 {
		return decimal128.Num{}, true
	}
	neg := b[0]&0x80 != 0
	for len(b) > 16 { // leading sign bytes only
		if (neg && b[0] != 0xff) || (!neg && b[0] != 0) {
			return decimal128.Num{}, false
		}
		b = b[1:]
	}
	var hi, lo uint64
	if neg {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, c := range b {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	return decimal128.New(int64(hi), lo), true
}

// dateStep reads an int (days since the epoch) into a DATE column.
type dateStep struct {
	builderNull
	b *array.Date32Builder
}

func (s *dateStep) read(r *reader) {
	v := r.int()
	if !r.dry && !r.failed() {
		s.b.Append(arrow.Date32(v))
	}
}

// scaledStep reads a long or int counting units of a time or timestamp
// and appends it in the column's unit: times mul, divided by div.
type scaledStep struct {
	builderNull
	mul, div int64
	ts       *array.TimestampBuilder
	t32      *array.Time32Builder
}

func (s *scaledStep) read(r *reader) {
	v := r.long()
	if r.dry || r.failed() {
		return
	}
	v *= s.mul
	if s.div > 1 {
		q := v / s.div
		if v%s.div < 0 {
			q-- // floor, for times before the epoch
		}
		v = q
	}
	if s.ts != nil {
		s.ts.Append(arrow.Timestamp(v))
	} else {
		s.t32.Append(arrow.Time32(v))
	}
}

// nullStep is the writer's null type: a NULL, or an error for a column
// that is NOT NULL.
type nullStep struct {
	target  step
	notNull string // the column, when it is NOT NULL
}

func (s *nullStep) read(r *reader) {
	if s.notNull != "" {
		r.fail(r.i, "NULL for column %s, which is NOT NULL", s.notNull)
		return
	}
	s.target.null(r)
}

func (s *nullStep) null(r *reader) { s.target.null(r) }

// unionStep reads a union's branch index and then that branch; a null
// branch is nil.
type unionStep struct {
	branches []step
	target   step // the column's, for a NULL
	notNull  string
}

func (s *unionStep) read(r *reader) {
	at := r.i
	k := r.long()
	if r.failed() {
		return
	}
	if k < 0 || k >= int64(len(s.branches)) {
		r.fail(at, "union branch %d of %d", k, len(s.branches))
		return
	}
	if s.branches[k] == nil {
		if s.notNull != "" {
			r.fail(at, "NULL for column %s, which is NOT NULL", s.notNull)
			return
		}
		s.target.null(r)
		return
	}
	if f, ok := s.branches[k].(*failStep); ok {
		r.fail(at, "%s", f.msg)
		return
	}
	s.branches[k].read(r)
}

func (s *unionStep) null(r *reader) { s.target.null(r) }

// failStep is a union branch the column cannot take: reading it fails.
type failStep struct {
	builderNull
	msg string
}

func (s *failStep) read(r *reader) { r.fail(r.i, "%s", s.msg) }

// record reads a record's fields in the writer's order; the columns the
// writer lacks (nullable) get a NULL.
type record struct {
	fields  []step // a field's step, or its skip
	missing []step
	names   []string // the column each of fields reads, "" for a skip
	// col is set at the top level: the column of field k is col[k], for
	// errors
	top bool
}

func (p *record) readFields(r *reader) {
	for k, s := range p.fields {
		if p.top && p.names[k] != "" {
			r.col = p.names[k]
		}
		s.read(r)
		if r.failed() {
			return
		}
	}
	for _, s := range p.missing {
		s.null(r)
	}
}

// structStep is a ROW column read from a record.
type structStep struct {
	builderNull
	rec *record
	b   *array.StructBuilder
}

func (s *structStep) read(r *reader) {
	if !r.dry {
		s.b.Append(true)
	}
	s.rec.readFields(r)
}

// listStep is an ARRAY column read from an array.
type listStep struct {
	builderNull
	item step
	b    *array.ListBuilder
}

func (s *listStep) read(r *reader) {
	if !r.dry {
		s.b.Append(true)
	}
	for n := r.blockCount(); n > 0 && !r.failed(); n = r.blockCount() {
		for range n {
			s.item.read(r)
			if r.failed() {
				return
			}
		}
	}
}

// mapStep is a MAP (or MULTISET) column read from a map.
type mapStep struct {
	builderNull
	keys  *array.StringBuilder
	value step
	b     *array.MapBuilder
}

func (s *mapStep) read(r *reader) {
	if !r.dry {
		s.b.Append(true)
	}
	for n := r.blockCount(); n > 0 && !r.failed(); n = r.blockCount() {
		for range n {
			at := r.i
			k := r.bytes()
			if r.failed() {
				return
			}
			if !utf8.Valid(k) {
				r.fail(at, "a map key that is not valid UTF-8")
				return
			}
			if !r.dry {
				s.keys.BinaryBuilder.Append(k)
			}
			s.value.read(r)
			if r.failed() {
				return
			}
		}
	}
}

// nullOnly is a column that only takes NULLs: the column a writer lacks,
// the target of a union's or the writer's null.
type nullOnly struct{ builderNull }

func (s *nullOnly) read(r *reader) { s.null(r) }
