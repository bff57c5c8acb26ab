package expr

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// String functions. Characters are Unicode code points, as Flink's
// BinaryStringData counts them. Results are written through one reused
// scratch buffer into the output builder, so no string is allocated per row.
// NULL in any argument gives NULL.

// StringFunc is UPPER, LOWER, CHAR_LENGTH (CHARACTER_LENGTH), CONCAT (and
// ||), SUBSTRING, REPLACE, chosen by Name. Args are typed by the planner:
// STRING, except SUBSTRING's start and length, which are BIGINT.
type StringFunc struct {
	Name string
	Args []Expr
}

func (e *StringFunc) DataType() arrow.DataType {
	if e.Name == "CHAR_LENGTH" {
		return arrow.PrimitiveTypes.Int32
	}
	return arrow.BinaryTypes.String
}

func (e *StringFunc) children() []Expr { return e.Args }

func (e *StringFunc) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return e.Name + "(" + strings.Join(args, ", ") + ")"
}

func (e *StringFunc) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	args := make([]strArg, len(e.Args))
	in := make([]arrow.Array, 0, len(e.Args))
	defer func() { ReleaseAll(in) }()
	for i, x := range e.Args {
		if l, ok := x.(*Literal); ok && !l.Null && l.Type.ID() == arrow.STRING {
			args[i] = strArg{constant: l.Str, isConst: true} // not copied into every row
			continue
		}
		a, err := x.Eval(rec, mem)
		if err != nil {
			return nil, err
		}
		in = append(in, a)
		args[i].arr = a
		args[i].col, _ = a.(*array.String)
	}
	valid := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.SetBitsTo(valid, 0, int64(n), true)
	for _, a := range in {
		andValidityInto(valid, a)
	}
	if e.Name == "CHAR_LENGTH" {
		s := args[0]
		vb, out := NewValues[int32](mem, n)
		for i := range out {
			out[i] = int32(utf8.RuneCountInString(s.at(i)))
		}
		return NewArray(arrow.PrimitiveTypes.Int32, n, nullsOf(mem, valid, n), n-bitutil.CountSetBits(valid, 0, n), vb), nil
	}
	if (e.Name == "UPPER" || e.Name == "LOWER") && args[0].col != nil && args[0].col.NullN() == 0 {
		if out, ok := asciiCase(args[0].col, e.Name == "UPPER", mem); ok {
			return out, nil
		}
	}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	var buf []byte
	switch e.Name {
	case "UPPER", "LOWER":
		upper := e.Name == "UPPER"
		for i := range n {
			if bitutil.BitIsNotSet(valid, i) {
				b.AppendNull()
				continue
			}
			buf = mapCase(buf[:0], args[0].at(i), upper)
			if !fitsString(b, len(buf)) {
				return nil, stringLimitError(e.Name, n)
			}
			b.BinaryBuilder.Append(buf)
		}
	case "CONCAT":
		total := 0 // the result's bytes, known before building it
		for i := range n {
			if bitutil.BitIsSet(valid, i) {
				for _, s := range args {
					total += len(s.at(i))
				}
			}
		}
		if total > MaxStringColumnBytes {
			return nil, stringLimitError(e.Name, n)
		}
		b.ReserveData(total)
		for i := range n {
			if bitutil.BitIsNotSet(valid, i) {
				b.AppendNull()
				continue
			}
			buf = buf[:0]
			for _, s := range args {
				buf = append(buf, s.at(i)...)
			}
			b.BinaryBuilder.Append(buf)
		}
	case "SUBSTRING":
		starts := valuesOf[int64](args[1].arr)
		var lens []int64
		if len(args) > 2 {
			lens = valuesOf[int64](args[2].arr)
		}
		for i := range n {
			if bitutil.BitIsNotSet(valid, i) {
				b.AppendNull()
				continue
			}
			length := int64(-1)
			if lens != nil {
				if length = lens[i]; length < 0 {
					b.AppendNull() // Flink: a negative length gives NULL
					continue
				}
			}
			v := substring(args[0].at(i), starts[i], length)
			if !fitsString(b, len(v)) {
				return nil, stringLimitError(e.Name, n)
			}
			b.Append(v)
		}
	case "REPLACE":
		for i := range n {
			if bitutil.BitIsNotSet(valid, i) {
				b.AppendNull()
				continue
			}
			buf = appendReplace(buf[:0], args[0].at(i), args[1].at(i), args[2].at(i))
			if !fitsString(b, len(buf)) {
				return nil, stringLimitError(e.Name, n)
			}
			b.BinaryBuilder.Append(buf)
		}
	default:
		return nil, fmt.Errorf("unknown string function %s", e.Name)
	}
	return b.NewArray(), nil
}

// strArg is an argument of a string function: a column, or a constant
// string read in place for every row rather than copied into a column.
type strArg struct {
	arr      arrow.Array   // the evaluated column (nil for a constant)
	col      *array.String // arr as STRING, when it is one
	constant string
	isConst  bool
}

func (a strArg) at(i int) string {
	if a.isConst {
		return a.constant
	}
	return a.col.Value(i)
}

// nullsOf copies a validity bitmap into a buffer, nil when nothing is NULL.
func nullsOf(mem memory.Allocator, valid []byte, n int) *memory.Buffer {
	if bitutil.CountSetBits(valid, 0, n) == n {
		return nil
	}
	buf, out := NewBits(mem, n)
	copy(out, valid)
	return buf
}

// asciiCase maps a column of ASCII strings without NULLs at once (ok is
// false for other characters): row by row through a builder, LOWER was a
// sixth of Nexmark q21, which lower-cases channel five times.
func asciiCase(col *array.String, upper bool, mem memory.Allocator) (arrow.Array, bool) {
	offs, src := col.ValueOffsets(), col.ValueBytes()
	if slices.ContainsFunc(src, func(c byte) bool { return c >= utf8.RuneSelf }) {
		return nil, false
	}
	ob, out := NewValues[int32](mem, col.Len()+1)
	for i, o := range offs {
		out[i] = o - offs[0]
	}
	db, data := NewValues[byte](mem, len(src))
	lo := byte('A')
	if upper {
		lo = 'a'
	}
	for i, c := range src {
		if c-lo < 26 { // a letter of the other case: flip it
			c ^= 'a' - 'A'
		}
		data[i] = c
	}
	return NewArray(arrow.BinaryTypes.String, col.Len(), nil, 0, ob, db), true
}

// mapCase upper- or lower-cases s into dst, byte by byte for ASCII.
func mapCase(dst []byte, s string, upper bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if upper && 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			} else if !upper && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if upper {
			r = unicode.ToUpper(r)
		} else {
			r = unicode.ToLower(r)
		}
		dst = utf8.AppendRune(dst, r)
		i += size
	}
	return dst
}

// substring is Flink's SUBSTRING(s, start[, length]): 1-based; a negative
// start counts from the end; 0 is treated as 1; length < 0 means "to the end".
func substring(s string, start, length int64) string {
	chars := int64(utf8.RuneCountInString(s))
	var from int64
	switch {
	case start > 0:
		from = start - 1
	case start < 0:
		from = max(chars+start, 0)
	}
	if from >= chars {
		return ""
	}
	to := chars
	if length >= 0 && length < chars-from { // from+length could overflow
		to = from + length
	}
	if chars == int64(len(s)) { // ASCII
		return s[from:to]
	}
	bFrom, bTo, c := len(s), len(s), int64(0)
	for i := range s {
		if c == from {
			bFrom = i
		}
		if c == to {
			bTo = i
			break
		}
		c++
	}
	return s[bFrom:bTo]
}

// appendReplace is Java's String.replace: every occurrence, left to right;
// an empty search inserts the replacement around every character.
func appendReplace(dst []byte, s, search, repl string) []byte {
	if search == "" {
		dst = append(dst, repl...)
		for _, r := range s {
			dst = utf8.AppendRune(dst, r)
			dst = append(dst, repl...)
		}
		return dst
	}
	for {
		i := strings.Index(s, search)
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		dst = append(dst, repl...)
		s = s[i+len(search):]
	}
}

// Trim is TRIM([BOTH|LEADING|TRAILING] [chars] FROM X), LTRIM and RTRIM:
// removes any of the characters of Chars (a set, as in Flink) from the
// chosen ends; Chars is " " by default.
type Trim struct {
	X                 Expr
	Chars             string
	Leading, Trailing bool
}

func (e *Trim) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *Trim) children() []Expr         { return []Expr{e.X} }

func (e *Trim) String() string {
	mode := "BOTH"
	if !e.Trailing {
		mode = "LEADING"
	} else if !e.Leading {
		mode = "TRAILING"
	}
	return fmt.Sprintf("TRIM(%s '%s' FROM %s)", mode, e.Chars, e.X)
}

func (e *Trim) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	x, err := e.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	s := x.(*array.String)
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(s.Len())
	b.ReserveData(len(s.ValueBytes()))
	single := len(e.Chars) == 1
	for i := range s.Len() {
		if s.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := s.Value(i)
		if single {
			c := e.Chars[0]
			if e.Leading {
				for len(v) > 0 && v[0] == c {
					v = v[1:]
				}
			}
			if e.Trailing {
				for len(v) > 0 && v[len(v)-1] == c {
					v = v[:len(v)-1]
				}
			}
		} else {
			if e.Leading {
				v = strings.TrimLeft(v, e.Chars)
			}
			if e.Trailing {
				v = strings.TrimRight(v, e.Chars)
			}
		}
		if !fitsString(b, len(v)) {
			return nil, stringLimitError("TRIM", s.Len())
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}
