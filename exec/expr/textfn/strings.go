package textfn

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Func is one of Flink's string functions (and the hashes), chosen by
// Name, over arguments the registry typed: STRING, or BIGINT for the
// integer ones. Unless its doc says otherwise, a NULL argument gives NULL.
type Func struct {
	Name string
	Args []expr.Expr
	// Type is the result type.
	Type arrow.DataType
}

func (e *Func) DataType() arrow.DataType { return e.Type }
func (e *Func) Children() []expr.Expr    { return e.Args }
func (e *Func) String() string           { return argsString(e.Name, e.Args) }

// CanFail: FROM_BASE64 of text that is not base64 stops the query, as in
// Flink; inside CASE it runs only on the rows that reach it.
func (e *Func) CanFail() bool { return e.Name == "FROM_BASE64" }

func (e *Func) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	b, err := evalBatch(rec, mem, e.Args)
	if err != nil {
		return nil, err
	}
	defer b.release()
	n := b.n
	switch e.Type.ID() {
	case arrow.INT32:
		out := newFixedOut[int32](mem, n)
		for i := range n {
			if b.ok(i) {
				out.set(i, e.intRow(b, i))
			}
		}
		return out.finish(e.Type, n), nil
	case arrow.BOOL:
		out := newBoolOut(mem, n)
		for i := range n {
			if !b.ok(i) {
				continue
			}
			s, x := b.strs[0].At(i), b.strs[1].At(i)
			if e.Name == "STARTSWITH" {
				out.set(i, strings.HasPrefix(s, x))
			} else {
				out.set(i, strings.HasSuffix(s, x))
			}
		}
		return out.finish(n), nil
	}
	if e.Name == "SPLIT_INDEX" {
		if a, ok, err := splitIndexColumn(b, mem); ok {
			return a, err
		}
	}
	// Straight into the result's buffers, sized by the first argument's
	// bytes: through a StringBuilder the appends were a third of
	// SPLIT_INDEX's time (Nexmark q22).
	hint := 64
	if c, ok := firstCol(b).(*array.String); ok {
		hint = len(c.ValueBytes())
	}
	out := newRawStrings(mem, n, e.Name, min(hint, expr.MaxStringColumnBytes))
	var buf []byte
	for i := range n {
		var ok bool
		buf, ok, err = e.stringRow(b, i, buf[:0])
		if err != nil {
			out.release()
			return nil, err
		}
		if !ok {
			out.null()
			continue
		}
		if err := out.add(unsafe.String(unsafe.SliceData(buf), len(buf))); err != nil {
			out.release()
			return nil, err
		}
	}
	return out.finish(), nil
}

func (e *Func) intRow(b *batch, i int) int32 {
	switch e.Name {
	case "POSITION": // POSITION(needle IN s)
		return position(b.strs[1].At(i), b.strs[0].At(i), 1)
	case "INSTR": // INSTR(s, needle)
		return position(b.strs[0].At(i), b.strs[1].At(i), 1)
	case "LOCATE": // LOCATE(needle, s [, from])
		from := int64(1)
		if len(e.Args) > 2 {
			from = b.ints(2)[i]
		}
		return position(b.strs[1].At(i), b.strs[0].At(i), from)
	case "ASCII":
		s := b.strs[0].At(i)
		if s == "" {
			return 0
		}
		r, _ := utf8.DecodeRuneInString(s)
		return int32(r)
	}
	return 0
}

// position is Flink's position(needle, s, from): the 1-based character
// position of the first needle at or after character from, 0 if none; an
// empty needle is at 1 (BinaryStringData.indexOf).
func position(s, needle string, from int64) int32 {
	if needle == "" {
		return 1
	}
	start := 0 // the byte of character from-1
	for c := int64(1); c < from && start < len(s); c++ {
		_, size := utf8.DecodeRuneInString(s[start:])
		start += size
	}
	k := strings.Index(s[start:], needle)
	if k < 0 {
		return 0
	}
	return int32(utf8.RuneCountInString(s[:start+k])) + 1
}

// stringRow appends row i's value to dst; ok is false for NULL.
func (e *Func) stringRow(b *batch, i int, dst []byte) ([]byte, bool, error) {
	switch e.Name {
	case "CONCAT_WS":
		if !b.isValid(0, i) {
			return dst, false, nil
		}
		sep, first := b.strs[0].At(i), true
		for k := 1; k < len(e.Args); k++ {
			if !b.isValid(k, i) {
				continue // CONCAT_WS skips NULL strings
			}
			if !first {
				dst = append(dst, sep...)
			}
			dst, first = append(dst, b.strs[k].At(i)...), false
		}
		return dst, true, nil
	case "ELT":
		if !b.isValid(0, i) {
			return dst, false, nil
		}
		k := b.ints(0)[i]
		if k < 1 || k >= int64(len(e.Args)) || !b.isValid(int(k), i) {
			return dst, false, nil
		}
		return append(dst, b.strs[k].At(i)...), true, nil
	}
	if !b.ok(i) {
		return dst, false, nil
	}
	if e.Name == "CHR" { // Flink: the char of n & 0xFF, "" for n < 0
		n := b.ints(0)[i]
		if n < 0 {
			return dst, true, nil
		}
		return utf8.AppendRune(dst, rune(n&0xFF)), true, nil
	}
	s := b.strs[0].At(i)
	switch e.Name {
	case "LPAD", "RPAD":
		return pad(dst, s, b.ints(1)[i], b.strs[2].At(i), e.Name == "LPAD")
	case "SPLIT_INDEX":
		return splitIndex(dst, s, b.strs[1].At(i), b.ints(2)[i])
	case "INITCAP":
		return initCap(dst, s), true, nil
	case "LEFT", "RIGHT":
		k := b.ints(1)[i]
		chars := int64(utf8.RuneCountInString(s))
		if k <= 0 {
			return dst, true, nil
		}
		if k >= chars {
			return append(dst, s...), true, nil
		}
		if e.Name == "LEFT" {
			return append(dst, s[:byteOfChar(s, k)]...), true, nil
		}
		return append(dst, s[byteOfChar(s, chars-k):]...), true, nil
	case "REPEAT":
		k := b.ints(1)[i]
		if k > 0 && int64(len(s))*k > expr.MaxStringColumnBytes {
			return dst, false, fmt.Errorf("%w: REPEAT of a %d-byte string %d times passes 2 GiB", expr.ErrStringLimit, len(s), k)
		}
		for range max(k, 0) {
			dst = append(dst, s...)
		}
		return dst, true, nil
	case "REVERSE":
		for k := len(s); k > 0; {
			r, size := utf8.DecodeLastRuneInString(s[:k])
			dst = utf8.AppendRune(dst, r)
			k -= size
		}
		return dst, true, nil
	case "OVERLAY":
		r := b.strs[1].At(i)
		length := int64(utf8.RuneCountInString(r))
		if len(e.Args) > 3 {
			length = b.ints(3)[i]
		}
		return overlay(dst, s, r, b.ints(2)[i], length), true, nil
	case "TRANSLATE":
		return translate(dst, s, b.strs[1].At(i), b.strs[2].At(i)), true, nil
	case "BTRIM", "LTRIM", "RTRIM":
		chars := " "
		if len(e.Args) > 1 {
			chars = b.strs[1].At(i)
		}
		return append(dst, trimChars(s, chars, e.Name != "RTRIM", e.Name != "LTRIM")...), true, nil
	case "TO_BASE64":
		return appendBase64(dst, s), true, nil
	case "FROM_BASE64":
		out, err := appendFromBase64(dst, s)
		return out, err == nil, err
	case "URL_ENCODE":
		return urlEncode(dst, s), true, nil
	case "URL_DECODE":
		out, ok := urlDecode(dst, s)
		return out, ok, nil
	case "PARSE_URL":
		key, hasKey := "", len(e.Args) > 2
		if hasKey {
			key = b.strs[2].At(i)
		}
		v, ok := parseURL(s, b.strs[1].At(i), key, hasKey)
		return append(dst, v...), ok, nil
	case "JSON_QUOTE":
		return jsonQuote(dst, s), true, nil
	case "JSON_UNQUOTE":
		return jsonUnquote(dst, s), true, nil
	case "MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512":
		return appendHash(dst, e.Name, s), true, nil
	case "SHA2":
		name, ok := sha2Name(b.ints(1)[i])
		if !ok {
			return dst, false, nil
		}
		return appendHash(dst, name, s), true, nil
	case "HEX":
		return appendHexUpper(dst, s), true, nil
	}
	return dst, false, fmt.Errorf("unknown string function %s", e.Name)
}

// byteOfChar is the byte offset of character k of s.
func byteOfChar(s string, k int64) int {
	c := int64(0)
	for i := range s {
		if c == k {
			return i
		}
		c++
	}
	return len(s)
}

// pad is Flink's LPAD/RPAD: s padded with p (cyclically) or cut to n
// characters; NULL when n < 0 or p is empty.
func pad(dst []byte, s string, n int64, p string, left bool) ([]byte, bool, error) {
	if n < 0 || p == "" {
		return dst, false, nil
	}
	if n > expr.MaxStringColumnBytes {
		return dst, false, fmt.Errorf("%w: padding to %d characters passes 2 GiB", expr.ErrStringLimit, n)
	}
	chars := int64(utf8.RuneCountInString(s))
	fill := max(n-chars, 0)
	appendFill := func(dst []byte) []byte {
		for k := int64(0); k < fill; {
			for _, r := range p {
				if k == fill {
					break
				}
				dst = utf8.AppendRune(dst, r)
				k++
			}
		}
		return dst
	}
	keep := s[:byteOfChar(s, min(chars, n))]
	if left {
		return append(appendFill(dst), keep...), true, nil
	}
	return appendFill(append(dst, keep...)), true, nil
}

// splitIndex is SPLIT_INDEX: field k (from 0) of s split by sep, all
// fields kept (Commons Lang's splitByWholeSeparatorPreserveAllTokens; an
// empty sep splits at white space); NULL when k < 0 or past the fields.
func splitIndex(dst []byte, s, sep string, k int64) ([]byte, bool, error) {
	if k < 0 || s == "" {
		return dst, false, nil
	}
	for ; ; k-- {
		var end, next int
		if sep == "" {
			end = strings.IndexFunc(s, unicode.IsSpace)
			if end >= 0 {
				_, size := utf8.DecodeRuneInString(s[end:])
				next = end + size
			}
		} else if end = strings.Index(s, sep); end >= 0 {
			next = end + len(sep)
		}
		if k == 0 {
			if end < 0 {
				end = len(s)
			}
			return append(dst, s[:end]...), true, nil
		}
		if end < 0 {
			return dst, false, nil
		}
		s = s[next:]
	}
}

// initCap upper-cases the first letter of each run of letters and digits
// and lower-cases the rest.
func initCap(dst []byte, s string) []byte {
	inWord := false
	for _, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && !inWord {
			r = unicode.ToUpper(r)
		} else {
			r = unicode.ToLower(r)
		}
		inWord = word
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// overlay is Flink's OVERLAY(s PLACING r FROM start FOR length), in
// characters: s when start is not within s.
func overlay(dst []byte, s, r string, start, length int64) []byte {
	chars := int64(utf8.RuneCountInString(s))
	if start <= 0 || start > chars {
		return append(dst, s...)
	}
	dst = append(dst, s[:byteOfChar(s, start-1)]...)
	dst = append(dst, r...)
	if start+length <= chars && length > 0 {
		dst = append(dst, s[byteOfChar(s, start-1+length):]...)
	}
	return dst
}

// translate replaces each character of from in s by the character at the
// same place in to, or removes it when to is shorter; the first
// occurrence of a character in from counts.
func translate(dst []byte, s, from, to string) []byte {
	for _, r := range s {
		k := 0
		found := false
		for _, f := range from {
			if f == r {
				found = true
				break
			}
			k++
		}
		if !found {
			dst = utf8.AppendRune(dst, r)
			continue
		}
		for _, t := range to {
			if k == 0 {
				dst = utf8.AppendRune(dst, t)
				break
			}
			k--
		}
	}
	return dst
}

// trimChars removes the characters of chars (a set) from the chosen ends.
func trimChars(s, chars string, leading, trailing bool) string {
	if leading {
		s = strings.TrimLeft(s, chars)
	}
	if trailing {
		s = strings.TrimRight(s, chars)
	}
	return s
}
