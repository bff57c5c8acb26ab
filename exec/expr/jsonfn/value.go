package jsonfn

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Value is JSON_VALUE(doc, path [RETURNING type] [behaviour ON EMPTY]
// [behaviour ON ERROR]): the scalar at path as Returning (STRING,
// BOOLEAN, INT, BIGINT or DOUBLE). A value that does not convert to
// Returning is an error of the row (ON ERROR), as a CAST of it would be.
type Value struct {
	pathArgs
	Returning        arrow.DataType
	OnEmpty, OnError Behavior
	// EmptyDefault and ErrorDefault are the DEFAULT values, of type
	// Returning.
	EmptyDefault, ErrorDefault expr.Expr
}

// ValueTypes are the types RETURNING may name.
var ValueTypes = []arrow.DataType{arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean,
	arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64}

// NewValue builds JSON_VALUE; its error is a path wsql cannot run.
func NewValue(doc, path expr.Expr, returning arrow.DataType) (*Value, error) {
	a, err := newPathArgs(doc, path)
	return &Value{pathArgs: a, Returning: returning}, err
}

func (e *Value) DataType() arrow.DataType { return e.Returning }
func (e *Value) String() string           { return fmt.Sprintf("JSON_VALUE(%s, %s)", e.Doc, e.PathArg) }
func (e *Value) CanFail() bool            { return e.OnEmpty == BehaviorError || e.OnError == BehaviorError }
func (e *Value) Children() []expr.Expr {
	out := []expr.Expr{e.Doc, e.PathArg}
	for _, d := range []expr.Expr{e.EmptyDefault, e.ErrorDefault} {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// valueOut is JSON_VALUE's result column being built, straight in the
// Arrow buffers of the result.
type valueOut struct {
	dt     arrow.DataType
	id     arrow.Type // dt.ID(), not asked of the interface per row
	str    *strOut
	valid  []byte
	values *memory.Buffer // BOOLEAN, INT, BIGINT or DOUBLE: one of
	bools  []byte
	int32s []int32
	ints   []int64
	dbls   []float64
	buf    []byte
}

func (e *Value) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	valid := allValid(n)
	o := &valueOut{dt: e.Returning, id: e.Returning.ID(), valid: valid}
	switch o.id {
	case arrow.STRING:
		hint := 0
		if l, ok := e.Doc.(*expr.Literal); !ok || l.Null {
			hint = 8 * n
		}
		o.str = newStrOut(mem, n, hint)
	case arrow.BOOL:
		o.values, o.bools = expr.NewBits(mem, n)
	case arrow.FLOAT64:
		o.values, o.dbls = expr.NewValues[float64](mem, n)
		clear(o.dbls)
	case arrow.INT32:
		o.values, o.int32s = expr.NewValues[int32](mem, n)
		clear(o.int32s)
	default:
		o.values, o.ints = expr.NewValues[int64](mem, n)
		clear(o.ints)
	}
	var defaults [2]arrow.Array
	for k, d := range []expr.Expr{e.EmptyDefault, e.ErrorDefault} {
		if d != nil {
			a, err := d.Eval(rec, mem)
			if err != nil {
				o.release()
				return nil, err
			}
			defer a.Release()
			defaults[k] = a
		}
	}
	r := readers.Get().(*reader)
	defer readers.Put(r)
	rows, err := e.rows(rec, mem, valid)
	if err != nil {
		o.release()
		return nil, err
	}
	defer rows.release()
	docs := newColumnRows(rows.arrays[0])
	anyNull := bitutil.CountSetBits(valid, 0, n) < n
	p := rows.p // a constant path's; a column's is read per row
	var failure error
	for i := range n {
		if anyNull && bitutil.BitIsNotSet(valid, i) {
			o.null(i)
			continue
		}
		if !rows.constant {
			if p, err = rows.path(i); err != nil {
				o.release()
				return nil, err
			}
		}
		var doc string
		if docs.ok {
			doc = docs.at(i)
		} else {
			doc = rows.docs.At(i)
		}
		var msg, badTok string
		switch r.read(p, doc) {
		case outValue:
			switch {
			case r.shape == shapePlainString && o.str != nil:
				// o.str.add written out: the call costs more than the copy.
				out, v := o.str, doc[r.value.start+1:r.value.end-1]
				if out.end+len(v) <= len(out.bytes) || out.room(len(v)) {
					out.end += copy(out.bytes[out.end:], v)
				}
				out.rows++
				out.offsets[out.rows] = int32(out.end)
				continue
			case r.shape == shapeSmallInt && o.ints != nil:
				o.ints[i] = digits(doc[r.value.start:r.value.end])
				continue
			}
			if c := doc[r.value.start]; c == '{' || c == '[' {
				if p.lax {
					break // a lax path to an object or array found no scalar
				}
				msg = p.msgNotScalar
			} else if tok := doc[r.value.start:r.value.end]; o.set(i, tok) {
				continue
			} else {
				msg, badTok = msgCannotConvert, tok
			}
		case outList:
			if !p.lax {
				msg = p.msgNotScalar
			}
		case outError:
			msg = r.err
		}
		if msg == "" { // empty
			switch e.OnEmpty {
			case BehaviorNull:
				o.null(i)
				continue
			case BehaviorDefault:
				o.fromColumn(i, defaults[0])
				continue
			}
			if failure == nil {
				failure = evalError("JSON_VALUE", p.msgNoValue+" (ERROR ON EMPTY)")
			}
			o.null(i)
			continue
		}
		switch e.OnError {
		case BehaviorDefault:
			o.fromColumn(i, defaults[1])
		case BehaviorError:
			if failure == nil {
				if msg == msgCannotConvert { // the message is made only when it is shown
					msg = fmt.Sprintf("cannot read %s as %s", badTok, typeName(o.dt))
				}
				failure = evalError("JSON_VALUE", msg)
			}
			o.null(i)
		default:
			o.null(i)
		}
	}
	if failure != nil {
		o.release()
		return nil, failure
	}
	return o.finish(mem, n)
}

func (o *valueOut) release() {
	if o.str != nil {
		o.str.release()
	}
	if o.values != nil {
		o.values.Release()
	}
}

func (o *valueOut) null(i int) {
	bitutil.ClearBit(o.valid, i)
	if o.str != nil {
		o.str.null()
	}
}

// msgCannotConvert stands for the message of a value that does not
// convert, made when ERROR ON ERROR shows it.
const msgCannotConvert = "cannot convert"

// set converts the scalar tok; false when it does not convert. It
// allocates nothing: a quoted value is decoded into o.buf and read there.
func (o *valueOut) set(i int, tok string) bool {
	switch o.id {
	case arrow.STRING:
		switch tok[0] {
		case '"':
			body := tok[1 : len(tok)-1]
			if !hasBackslash(body) {
				o.str.add(body) // nothing to decode
				return true
			}
			o.buf = appendUnescaped(o.buf[:0], body)
		case 't', 'f':
			o.buf = append(o.buf[:0], tok...)
		default:
			o.buf = appendNumber(o.buf[:0], tok)
		}
		o.str.addBytes(o.buf)
		return true
	case arrow.BOOL:
		text := tok
		if tok[0] == '"' {
			o.buf = appendUnescaped(o.buf[:0], tok[1:len(tok)-1])
			text = bytesView(o.buf)
		}
		switch {
		case asciiEqualFold(text, "true"):
			bitutil.SetBit(o.bools, i)
			return true
		case asciiEqualFold(text, "false"):
			return true
		}
	case arrow.FLOAT64:
		text := tok
		if tok[0] == '"' {
			o.buf = appendUnescaped(o.buf[:0], tok[1:len(tok)-1])
			text = strings.TrimSpace(bytesView(o.buf))
		}
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			o.dbls[i] = f
			return true
		}
	default:
		text := tok
		if tok[0] == '"' {
			o.buf = appendUnescaped(o.buf[:0], tok[1:len(tok)-1])
			text = strings.TrimSpace(bytesView(o.buf))
		}
		bits := 64
		if o.id == arrow.INT32 {
			bits = 32
		}
		if v, ok := smallInt(text); ok && (bits == 64 || v == int64(int32(v))) {
			o.setInt(i, v)
			return true
		}
		if !integerText(text) {
			return false // without ParseInt's error, which allocates
		}
		if v, err := strconv.ParseInt(text, 10, bits); err == nil {
			o.setInt(i, v)
			return true
		}
	}
	return false
}

func typeName(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.STRING:
		return "STRING"
	case arrow.BOOL:
		return "BOOLEAN"
	case arrow.INT32:
		return "INT"
	case arrow.INT64:
		return "BIGINT"
	}
	return "DOUBLE"
}

// fromColumn takes row i of a DEFAULT value. A STRING result takes any
// value as Java's String.valueOf writes it (FALSE is 'false').
func (o *valueOut) fromColumn(i int, a arrow.Array) {
	if a.IsNull(i) {
		o.null(i)
		return
	}
	switch a := a.(type) {
	case *array.String:
		o.str.add(a.Value(i))
	case *array.Boolean:
		switch {
		case o.str != nil:
			o.str.add(strconv.FormatBool(a.Value(i)))
		case a.Value(i):
			bitutil.SetBit(o.bools, i)
		}
	case *array.Int32:
		o.setInt(i, int64(a.Value(i)))
	case *array.Int64:
		o.setInt(i, a.Value(i))
	case *array.Float64:
		if o.str != nil {
			o.str.addBytes(AppendJavaDouble(o.buf[:0], a.Value(i), 64))
			return
		}
		o.dbls[i] = a.Value(i)
	default:
		if o.str != nil {
			o.str.add(a.ValueStr(i))
			return
		}
		o.null(i)
	}
}

func (o *valueOut) setInt(i int, v int64) {
	switch {
	case o.str != nil:
		o.str.addBytes(strconv.AppendInt(o.buf[:0], v, 10))
	case o.int32s != nil:
		o.int32s[i] = int32(max(min(v, math.MaxInt32), math.MinInt32))
	default:
		o.ints[i] = v
	}
}

func (o *valueOut) finish(mem memory.Allocator, n int) (arrow.Array, error) {
	nulls := n - bitutil.CountSetBits(o.valid, 0, n)
	if o.id == arrow.STRING {
		return o.str.finish("JSON_VALUE", expr.NullsOf(mem, o.valid, n), nulls)
	}
	return expr.NewArray(o.dt, n, expr.NullsOf(mem, o.valid, n), nulls, o.values), nil
}

// smallInt reads an integer of up to 18 digits without strconv's checks.
func smallInt(s string) (int64, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		v = v*10 + int64(s[i]-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// hasBackslash reports an escape in a string's body; a short one is
// looked at here, which is cheaper than IndexByte's call.
func hasBackslash(s string) bool {
	if len(s) > 16 {
		return strings.IndexByte(s, '\\') >= 0
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			return true
		}
	}
	return false
}

// digits is the value of 1 to 18 decimal digits.
func digits(s string) int64 {
	var v int64
	for i := 0; i < len(s); i++ {
		v = v*10 + int64(s[i]-'0')
	}
	return v
}

// bytesView is b as a string without a copy, for reading only while b
// is not changed.
func bytesView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// asciiEqualFold compares s with a lower-case ASCII word, ignoring the
// case of ASCII letters as Java's equalsIgnoreCase does for these words
// (no other rune folds to one of their letters).
func asciiEqualFold(s, word string) bool {
	if len(s) != len(word) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[i] {
			return false
		}
	}
	return true
}

// integerText reports text ParseInt may read: a sign and digits.
func integerText(s string) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
