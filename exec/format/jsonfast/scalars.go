package jsonfast

import (
	"encoding/binary"
	"math"

	"github.com/wsql/wsql/exec/format/jsontext"
	"github.com/wsql/wsql/rowtime"
)

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimal parses the JSON number at b[i] of the form -digits.digits with
// at most 15 digits into a float64's bits: the mantissa and the power of
// ten are exact, so the one division rounds correctly (Clinger's fast
// path, as scalartext.FastFloat, whose results it gives).
// Anything else goes to the general path.
func decimal(b []byte, i int) (next int, bits uint64, ok bool) {
	neg := b[i] == '-'
	if neg {
		i++
	}
	start := i
	var m uint64
	for i < len(b) && b[i]-'0' <= 9 {
		m = m*10 + uint64(b[i]-'0')
		i++
	}
	digits := i - start
	if digits == 0 || digits > 1 && b[start] == '0' {
		return 0, 0, false
	}
	frac := 0
	if i < len(b) && b[i] == '.' {
		i++
		f := i
		for i < len(b) && b[i]-'0' <= 9 {
			m = m*10 + uint64(b[i]-'0')
			i++
		}
		frac = i - f
		digits += frac
		if frac == 0 {
			return 0, 0, false
		}
	}
	if digits > 15 || i < len(b) && b[i]|0x20 == 'e' {
		return 0, 0, false
	}
	v := float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return i, math.Float64bits(v), true
}

// dateCache remembers the days of the last date read: a stream's
// timestamps mostly share their date.
type dateCache struct {
	head uint64 // yyyy-MM-
	tail uint16 // dd
	days int64
	ok   bool
}

// timestamp reads the string at b[i] of the form "yyyy-MM-dd
// HH:mm:ss[.fraction]" ('T' or ' ' in the middle) into a Timestamp leaf,
// in the unit of n.Digits. Any other form, and any value out of range,
// goes to the general path, which names the error.
func (n *Node) timestamp(b []byte, i int) int {
	if b[i] != '"' || len(b)-i < 21 {
		return other
	}
	i++
	t := b[i : i+19]
	if t[4] != '-' || t[7] != '-' || t[10] != ' ' && t[10] != 'T' || t[13] != ':' || t[16] != ':' {
		return other
	}
	var days int64
	head, tail := binary.LittleEndian.Uint64(t), binary.LittleEndian.Uint16(t[8:])
	if c := &n.date; c.ok && c.head == head && c.tail == tail {
		days = c.days
	} else {
		y1, y2, mo, d := two(t[0:]), two(t[2:]), two(t[5:]), two(t[8:])
		if y1 < 0 || y2 < 0 || mo < 1 || mo > 12 || d < 1 {
			return other
		}
		y := y1*100 + y2
		if d > rowtime.DaysInMonth(y, mo) {
			return other
		}
		days = rowtime.DaysFromCivil(int64(y), int64(mo), int64(d))
		*c = dateCache{head: head, tail: tail, days: days, ok: true}
	}
	h, mi, s := two(t[11:]), two(t[14:]), two(t[17:])
	if h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 {
		return other
	}
	sec := days*86400 + int64(h*3600+mi*60+s)
	j, nanos := i+19, int64(0)
	// Milliseconds into TIMESTAMP(3), the commonest, without the loop
	// and the division below.
	if n.Digits == 3 && len(b)-j >= 5 && b[j] == '.' && b[j+4] == '"' {
		if d1, d2, d3 := b[j+1]-'0', b[j+2]-'0', b[j+3]-'0'; d1 <= 9 && d2 <= 9 && d3 <= 9 {
			*n.Fixed = binary.NativeEndian.AppendUint64(*n.Fixed, uint64(sec*1e3+int64(d1)*100+int64(d2)*10+int64(d3)))
			*n.Valid = append(*n.Valid, true)
			return j + 5
		}
	}
	if b[j] == '.' {
		j++
		f := j
		for j < len(b) && b[j]-'0' <= 9 {
			nanos = nanos*10 + int64(b[j]-'0')
			j++
		}
		if j-f == 0 || j-f > 9 {
			return other
		}
		nanos *= fracScale[j-f]
	}
	if j >= len(b) || b[j] != '"' {
		return other
	}
	var v int64
	switch n.Digits {
	case 0:
		v = sec
	case 3:
		v = sec*1e3 + nanos/1e6
	case 6:
		v = sec*1e6 + nanos/1e3
	default:
		if sec > math.MaxInt64/1_000_000_000-1 || sec < math.MinInt64/1_000_000_000+1 {
			return other
		}
		v = sec*1e9 + nanos
	}
	*n.Fixed = binary.NativeEndian.AppendUint64(*n.Fixed, uint64(v))
	*n.Valid = append(*n.Valid, true)
	return j + 1
}

// fracScale[k] turns k fraction digits into nanoseconds.
var fracScale = [10]int64{1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1}

// two reads two ASCII digits, or -1.
func two(b []byte) int {
	d1, d2 := b[0]-'0', b[1]-'0'
	if d1 > 9 || d2 > 9 {
		return -1
	}
	return int(d1)*10 + int(d2)
}

// skip checks the value at b[i] (i < len(b)), of no column, and returns
// the index after it, or -1.
func skip(b []byte, i, depth int) int {
	switch c := b[i]; {
	case c == '"':
		end, _ := jsontext.String(b, i+1)
		if end < 0 {
			return -1
		}
		return end + 1
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return -1
		}
		return skipContainer(b, i, depth)
	case c == '-' || c-'0' <= 9:
		return number(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	}
	return -1
}

func literal(b []byte, i int, word string) int {
	if len(b)-i >= len(word) && string(b[i:i+len(word)]) == word {
		return i + len(word)
	}
	return -1
}

// number checks the JSON number at b[i] and returns the index after it,
// or -1.
func number(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i]-'0' <= 9:
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		f := i
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		if i == f {
			return -1
		}
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		f := i
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		if i == f {
			return -1
		}
	}
	return i
}

// skipContainer checks the object or array at b[i].
func skipContainer(b []byte, i, depth int) int {
	obj := b[i] == '{'
	closing := byte(']')
	if obj {
		closing = '}'
	}
	i = ws(b, i+1)
	if i < len(b) && b[i] == closing {
		return i + 1
	}
	for {
		if i >= len(b) {
			return -1
		}
		if obj {
			if b[i] != '"' {
				return -1
			}
			end, _ := jsontext.String(b, i+1)
			if end < 0 {
				return -1
			}
			if i = ws(b, end+1); i >= len(b) || b[i] != ':' {
				return -1
			}
			if i = ws(b, i+1); i >= len(b) {
				return -1
			}
		}
		if i = skip(b, i, depth+1); i < 0 {
			return -1
		}
		i = ws(b, i)
		if i < len(b) && b[i] == ',' {
			i = ws(b, i+1)
			continue
		}
		if i < len(b) && b[i] == closing {
			return i + 1
		}
		return -1
	}
}
