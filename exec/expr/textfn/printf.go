package textfn

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/scalartext"
)

// Printf is PRINTF(format, x...): java.util.Formatter's conversions with
// Locale.US (s S d o x X f e E g G b B c C n %, flags - # + space 0 , (,
// width, precision, argument index n$ and <). A NULL x is "null" (false
// for %b); a NULL or invalid format, or a conversion that does not fit its
// argument, gives NULL, as in Flink. Date-time conversions (%t) are
// refused when the format is compiled.
type Printf struct {
	Args []expr.Expr // format (STRING), then the values
	Loc  *time.Location
}

func (e *Printf) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *Printf) Children() []expr.Expr    { return e.Args }
func (e *Printf) String() string           { return argsString("PRINTF", e.Args) }

// ErrPrintfDateTime is a %t conversion, which wsql does not run.
var ErrPrintfDateTime = errors.New("PRINTF's date-time conversions (%t, %T) are not supported yet")

// CheckPrintfFormat reports a constant format wsql cannot run.
func CheckPrintfFormat(f string) error {
	var specs []spec
	specs, ok := parseFormat(specs, f)
	if !ok {
		return nil // invalid formats are NULL at run time, as in Flink
	}
	for _, s := range specs {
		if s.conv == 't' || s.conv == 'T' {
			return ErrPrintfDateTime
		}
	}
	return nil
}

// spec is a literal run (conv 0) or one conversion of a format.
type spec struct {
	lit         string
	conv        byte
	index       int // 1-based argument, 0: the next one, -1: the previous one
	flags       string
	width, prec int // -1: none
}

// parseFormat parses Java's format syntax; ok is false for an invalid one.
func parseFormat(specs []spec, f string) ([]spec, bool) {
	specs = specs[:0]
	for len(f) > 0 {
		k := strings.IndexByte(f, '%')
		if k < 0 {
			return append(specs, spec{lit: f}), true
		}
		if k > 0 {
			specs = append(specs, spec{lit: f[:k]})
		}
		f = f[k+1:]
		s := spec{width: -1, prec: -1}
		// argument index n$ or <
		if strings.HasPrefix(f, "<") {
			s.index, f = -1, f[1:]
		} else if d := digitsPrefix(f); d > 0 && d < len(f) && f[d] == '$' {
			n, _ := strconv.Atoi(f[:d])
			s.index, f = n, f[d+1:]
		}
		fl := 0
		for fl < len(f) && strings.IndexByte("-#+ 0,(", f[fl]) >= 0 {
			fl++
		}
		s.flags, f = f[:fl], f[fl:]
		if d := digitsPrefix(f); d > 0 {
			s.width, _ = strconv.Atoi(f[:d])
			f = f[d:]
		}
		if strings.HasPrefix(f, ".") {
			d := digitsPrefix(f[1:])
			if d == 0 {
				return specs, false
			}
			s.prec, _ = strconv.Atoi(f[1 : 1+d])
			f = f[1+d:]
		}
		if f == "" {
			return specs, false
		}
		s.conv, f = f[0], f[1:]
		if s.conv == 't' || s.conv == 'T' {
			if f == "" {
				return specs, false
			}
			f = f[1:]
		} else if strings.IndexByte("sSdoxXfeEgGbBcCn%hH", s.conv) < 0 {
			return specs, false
		}
		specs = append(specs, s)
	}
	return specs, true
}

func digitsPrefix(s string) int {
	d := 0
	for d < len(s) && '0' <= s[d] && s[d] <= '9' {
		d++
	}
	return d
}

func (e *Printf) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	f, fArr, err := expr.EvalStringArg(e.Args[0], rec, mem)
	if err != nil {
		return nil, err
	}
	if fArr != nil {
		defer fArr.Release()
	}
	vals := make([]arrow.Array, len(e.Args)-1)
	texts := make([]func([]byte, int) []byte, len(vals))
	defer func() {
		for _, v := range vals {
			if v != nil {
				v.Release()
			}
		}
	}()
	for k, x := range e.Args[1:] {
		if vals[k], err = x.Eval(rec, mem); err != nil {
			return nil, err
		}
		texts[k] = format.ValueAppender(vals[k], e.Loc)
	}
	out := newStringOut(mem, n, "PRINTF")
	var specs []spec
	var buf, text []byte
	lastFormat, parsed, valid := "", false, false
	for i := range n {
		if fArr != nil && fArr.IsNull(i) {
			out.null()
			continue
		}
		fs := f.At(i)
		if !parsed || fs != lastFormat {
			specs, valid = parseFormat(specs, fs)
			lastFormat, parsed = fs, true
		}
		ok := valid
		buf = buf[:0]
		next, prev := 0, -1
		for _, s := range specs {
			if !ok {
				break
			}
			switch s.conv {
			case 0:
				buf = append(buf, s.lit...)
				continue
			case '%':
				buf = padTo(buf, "%", s)
				continue
			case 'n':
				buf = append(buf, '\n')
				continue
			}
			arg := next
			switch {
			case s.index > 0:
				arg = s.index - 1
			case s.index < 0:
				arg = prev
			default:
				next++
			}
			if arg < 0 || arg >= len(vals) {
				ok = false // Java's MissingFormatArgumentException
				break
			}
			prev = arg
			buf, text, ok = formatArg(buf, text, s, vals[arg], i, texts[arg])
		}
		if !ok {
			out.null()
			continue
		}
		if err := out.add(buf); err != nil {
			out.finish().Release()
			return nil, err
		}
	}
	return out.finish(), nil
}

// pad writes v at least width wide: right-aligned, or left with '-'.
func padTo(dst []byte, v string, s spec) []byte {
	fill := s.width - utf8.RuneCountInString(v)
	left := strings.Contains(s.flags, "-")
	if left {
		dst = append(dst, v...)
	}
	for ; fill > 0; fill-- {
		dst = append(dst, ' ')
	}
	if !left {
		dst = append(dst, v...)
	}
	return dst
}

// formatArg formats row i of a by one conversion; ok is false when the
// conversion does not fit the argument.
func formatArg(dst, text []byte, s spec, a arrow.Array, i int, asText func([]byte, int) []byte) ([]byte, []byte, bool) {
	null := a.IsNull(i)
	upper := 'A' <= s.conv && s.conv <= 'Z'
	text = text[:0]
	switch s.conv {
	case 's', 'S':
		if null {
			text = append(text, "null"...)
		} else {
			text = asText(text, i)
		}
		if s.prec >= 0 && utf8.RuneCount(text) > s.prec {
			text = text[:byteOfChar(string(text), int64(s.prec))]
		}
	case 'b', 'B':
		v := !null
		if b, isBool := a.(*array.Boolean); isBool && !null {
			v = b.Value(i)
		}
		text = strconv.AppendBool(text, v)
		if s.prec >= 0 && len(text) > s.prec {
			text = text[:s.prec]
		}
	case 'h', 'H':
		if null {
			text = append(text, "null"...)
		} else {
			return dst, text, false // Java's hashCode of wsql's values is not defined
		}
	case 'c', 'C':
		if null {
			text = append(text, "null"...)
			break
		}
		v, isInt := integerAt(a, i)
		if !isInt || v < 0 || v > utf8.MaxRune {
			return dst, text, false
		}
		text = utf8.AppendRune(text, rune(v))
	case 'd', 'o', 'x', 'X':
		if null {
			text = append(text, "null"...)
			break
		}
		v, isInt := integerAt(a, i)
		if !isInt || s.prec >= 0 {
			return dst, text, false
		}
		if s.conv == 'd' {
			text = formatDecimalInt(text, v, s)
		} else {
			base := 16
			if s.conv == 'o' {
				base = 8
			}
			u := uint64(v)
			if v < 0 { // two's complement in the argument's width, as Java
				bits := a.DataType().(arrow.FixedWidthDataType).BitWidth()
				u &= 1<<bits - 1
				if bits == 64 {
					u = uint64(v)
				}
			}
			if strings.Contains(s.flags, "#") {
				if base == 16 {
					text = append(text, "0x"...)
				} else {
					text = append(text, '0')
				}
			}
			text = strconv.AppendUint(text, u, base)
			text = zeroPad(text, s)
		}
	case 'f', 'e', 'E', 'g', 'G':
		if null {
			text = append(text, "null"...)
			break
		}
		v, isFloat := floatAt(a, i)
		if !isFloat {
			return dst, text, false
		}
		text = formatFloat(text, v, s)
	default:
		return dst, text, false
	}
	if upper {
		text = []byte(strings.ToUpper(string(text)))
	}
	return padTo(dst, string(text), s), text, true
}

func integerAt(a arrow.Array, i int) (int64, bool) {
	switch a := a.(type) {
	case *array.Int8:
		return int64(a.Value(i)), true
	case *array.Int16:
		return int64(a.Value(i)), true
	case *array.Int32:
		return int64(a.Value(i)), true
	case *array.Int64:
		return a.Value(i), true
	}
	return 0, false
}

func floatAt(a arrow.Array, i int) (float64, bool) {
	switch a := a.(type) {
	case *array.Float32:
		return float64(a.Value(i)), true
	case *array.Float64:
		return a.Value(i), true
	case *array.Decimal128:
		return a.Value(i).ToFloat64(a.DataType().(*arrow.Decimal128Type).Scale), true
	}
	return 0, false
}

// formatDecimalInt is %d with Java's flags: '+', ' ', ',' (groups of 3),
// '(' (negatives in parentheses), '0' (zero padding to the width).
func formatDecimalInt(dst []byte, v int64, s spec) []byte {
	digits := strconv.AppendUint(nil, uint64(v), 10)
	if v < 0 {
		digits = strconv.AppendUint(nil, uint64(-v), 10)
	}
	return signed(dst, digits, v < 0, s)
}

// signed writes digits with the sign flags and zero padding.
func signed(dst, digits []byte, neg bool, s spec) []byte {
	if strings.Contains(s.flags, ",") {
		intPart, rest := digits, []byte(nil)
		if k := strings.IndexByte(string(digits), '.'); k >= 0 {
			intPart, rest = digits[:k], digits[k:]
		}
		var g []byte
		for k, c := range intPart {
			if k > 0 && (len(intPart)-k)%3 == 0 {
				g = append(g, ',')
			}
			g = append(g, c)
		}
		digits = append(g, rest...)
	}
	prefix, suffix := "", ""
	switch {
	case neg && strings.Contains(s.flags, "("):
		prefix, suffix = "(", ")"
	case neg:
		prefix = "-"
	case strings.Contains(s.flags, "+"):
		prefix = "+"
	case strings.Contains(s.flags, " "):
		prefix = " "
	}
	dst = append(dst, prefix...)
	if strings.Contains(s.flags, "0") {
		for k := len(prefix) + len(digits) + len(suffix); k < s.width; k++ {
			dst = append(dst, '0')
		}
	}
	dst = append(dst, digits...)
	return append(dst, suffix...)
}

func zeroPad(text []byte, s spec) []byte {
	if !strings.Contains(s.flags, "0") || len(text) >= s.width {
		return text
	}
	out := make([]byte, 0, s.width)
	for k := len(text); k < s.width; k++ {
		out = append(out, '0')
	}
	return append(out, text...)
}

// formatFloat is %f, %e and %g as Java: the value's shortest decimal
// digits (Double.toString's) rounded half up to the precision (default 6).
func formatFloat(dst []byte, v float64, s spec) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		switch {
		case math.IsNaN(v):
			return append(dst, "NaN"...)
		case v > 0:
			return append(dst, "Infinity"...)
		}
		return append(dst, "-Infinity"...)
	}
	prec := s.prec
	if prec < 0 {
		prec = 6
	}
	neg := math.Signbit(v)
	digits, exp := scalartext.SplitExponentForm(strconv.AppendFloat(nil, math.Abs(v), 'e', -1, 64))
	// digits d1 d2 ... with the point after d1, times 10^exp
	conv := s.conv | 0x20
	if conv == 'g' {
		if prec == 0 {
			prec = 1
		}
		_, e := significant(digits, exp, prec)
		if v != 0 && (e < -4 || e >= prec) {
			conv, prec = 'e', prec-1
		} else {
			conv, prec = 'f', prec-1-e
		}
	}
	var body []byte
	if conv == 'e' {
		r, e := significant(digits, exp, prec+1)
		if v == 0 {
			e = 0
		}
		body = append(body, r[0])
		if prec > 0 || strings.Contains(s.flags, "#") {
			body = append(body, '.')
		}
		body = append(body, r[1:]...)
		body = append(body, 'e')
		if e < 0 {
			body = append(body, '-')
			e = -e
		} else {
			body = append(body, '+')
		}
		if e < 10 {
			body = append(body, '0')
		}
		body = strconv.AppendInt(body, int64(e), 10)
	} else {
		body = fixedDigits(digits, exp, prec)
	}
	return signed(dst, body, neg, s)
}

// significant rounds the digits (the point after the first, times
// 10^exp) half up to n digits; it returns them and the exponent after
// rounding.
func significant(digits []byte, exp, n int) ([]byte, int) {
	d := append([]byte(nil), digits...)
	for len(d) < n+1 {
		d = append(d, '0')
	}
	up := d[n] >= '5'
	d = d[:n]
	for k := n - 1; up && k >= 0; k-- {
		if d[k] == '9' {
			d[k] = '0'
			continue
		}
		d[k]++
		up = false
	}
	if up {
		d = append([]byte{'1'}, d[:n-1]...)
		exp++
	}
	return d, exp
}

// fixedDigits is the fixed form with prec digits after the point.
func fixedDigits(digits []byte, exp, prec int) []byte {
	// scale to an integer of prec fraction digits, rounding half up
	all := digits
	point := exp + 1 // digits before the point
	for point > len(all) {
		all = append(append([]byte(nil), all...), '0')
	}
	var intPart, frac []byte
	if point <= 0 {
		intPart = []byte{'0'}
		frac = append(make([]byte, 0, -point+len(all)), []byte(strings.Repeat("0", -point))...)
		frac = append(frac, all...)
	} else {
		intPart, frac = append([]byte(nil), all[:point]...), append([]byte(nil), all[point:]...)
	}
	num := append(intPart, frac...)
	keep := len(intPart) + prec
	for len(num) < keep+1 {
		num = append(num, '0')
	}
	up := num[keep] >= '5'
	num = num[:keep]
	for k := keep - 1; up && k >= 0; k-- {
		if num[k] == '9' {
			num[k] = '0'
			continue
		}
		num[k]++
		up = false
	}
	ip := len(intPart)
	if up {
		num = append([]byte{'1'}, num...)
		ip++
	}
	out := append([]byte(nil), num[:ip]...)
	if prec > 0 {
		out = append(out, '.')
		out = append(out, num[ip:]...)
	}
	return out
}
