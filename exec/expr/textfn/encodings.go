package textfn

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

func appendBase64(dst []byte, s string) []byte {
	return base64.StdEncoding.AppendEncode(dst, bytesOf(s))
}

// appendFromBase64 decodes as Java's Base64.getDecoder(): text that is not
// base64 is an error, which stops the query as it does in Flink.
func appendFromBase64(dst []byte, s string) ([]byte, error) {
	out, err := base64.StdEncoding.AppendDecode(dst, bytesOf(s))
	if err != nil {
		return dst, errors.New("FROM_BASE64: the input is not base64 (" + err.Error() + ")")
	}
	return out, nil
}

const upperHex = "0123456789ABCDEF"

// urlEncode is Java's URLEncoder.encode(s, UTF-8): letters, digits and
// ".-*_" stay, a space is '+', every other byte is %XX.
func urlEncode(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-', c == '*', c == '_':
			dst = append(dst, c)
		case c == ' ':
			dst = append(dst, '+')
		default:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// urlDecode is Java's URLDecoder.decode(s, UTF-8): '+' is a space, %XX a
// byte; a malformed escape gives NULL (ok false), as in Flink.
func urlDecode(dst []byte, s string) ([]byte, bool) {
	start := len(dst)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			dst = append(dst, ' ')
		case '%':
			if i+2 >= len(s) {
				return dst, false
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return dst, false
			}
			dst = append(dst, hi<<4|lo)
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	if !utf8.Valid(dst[start:]) { // Java decodes bad UTF-8 as U+FFFD
		fixed := []byte(strings.ToValidUTF8(string(dst[start:]), "\uFFFD"))
		dst = append(dst[:start], fixed...)
	}
	return dst, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// urlProtocols are the protocols java.net.URL has handlers for; any other
// makes PARSE_URL NULL, as Java's MalformedURLException does in Flink.
var urlProtocols = map[string]bool{"http": true, "https": true, "ftp": true, "file": true, "jar": true, "mailto": true}

// parseURL is Flink's PARSE_URL over java.net.URL's parts; with a key, the
// value of key=... in the query.
func parseURL(u, part, key string, hasKey bool) (string, bool) {
	colon := strings.IndexByte(u, ':')
	if colon <= 0 || !urlProtocols[strings.ToLower(u[:colon])] {
		return "", false
	}
	protocol, rest := strings.ToLower(u[:colon]), u[colon+1:]
	ref, hasRef := "", false
	if k := strings.IndexByte(rest, '#'); k >= 0 {
		ref, hasRef, rest = rest[k+1:], true, rest[:k]
	}
	authority, hasAuthority := "", false
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		end := strings.IndexAny(rest, "/?")
		if end < 0 {
			end = len(rest)
		}
		authority, hasAuthority, rest = rest[:end], true, rest[end:]
	}
	file := rest
	path, query, hasQuery := rest, "", false
	if k := strings.IndexByte(rest, '?'); k >= 0 {
		path, query, hasQuery = rest[:k], rest[k+1:], true
	}
	userInfo, hasUserInfo, host := "", false, authority
	if k := strings.LastIndexByte(authority, '@'); k >= 0 {
		userInfo, hasUserInfo, host = authority[:k], true, authority[k+1:]
	}
	if strings.HasPrefix(host, "[") {
		if k := strings.IndexByte(host, ']'); k >= 0 {
			host = host[:k+1]
		}
	} else if k := strings.LastIndexByte(host, ':'); k >= 0 {
		host = host[:k]
	}
	if hasKey {
		if part != "QUERY" || !hasQuery {
			return "", false
		}
		// the first key=value after the start or a '&', as Flink's
		// pattern (&|^)key=([^&]*)
		for q := query; ; {
			if strings.HasPrefix(q, key+"=") {
				v := q[len(key)+1:]
				if k := strings.IndexByte(v, '&'); k >= 0 {
					v = v[:k]
				}
				return v, true
			}
			k := strings.IndexByte(q, '&')
			if k < 0 {
				return "", false
			}
			q = q[k+1:]
		}
	}
	switch part {
	case "HOST":
		return host, hasAuthority
	case "PATH":
		return path, true
	case "QUERY":
		return query, hasQuery
	case "REF":
		return ref, hasRef
	case "PROTOCOL":
		return protocol, true
	case "FILE":
		return file, true
	case "AUTHORITY":
		return authority, hasAuthority
	case "USERINFO":
		return userInfo, hasUserInfo
	}
	return "", false
}

// jsonQuote is Flink's JSON_QUOTE: the string in double quotes with '"',
// '\', '/', \b, \f, \n, \r and \t escaped and every char above 127 written
// \uXXXX (UTF-16, lower-case hex).
func jsonQuote(dst []byte, s string) []byte {
	const lowerHex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range s {
		switch r {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '/':
			dst = append(dst, '\\', '/')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if r <= 127 {
				dst = append(dst, byte(r))
				continue
			}
			units := [2]rune{r}
			n := 1
			if r > 0xFFFF {
				units[0], units[1] = utf16.EncodeRune(r)
				n = 2
			}
			for _, u := range units[:n] {
				dst = append(dst, '\\', 'u', lowerHex[u>>12&15], lowerHex[u>>8&15], lowerHex[u>>4&15], lowerHex[u&15])
			}
		}
	}
	return append(dst, '"')
}

// jsonUnquote is Flink's JSON_UNQUOTE: a valid JSON string literal
// unescaped, anything else as it is.
func jsonUnquote(dst []byte, s string) []byte {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return append(dst, s...)
	}
	start := len(dst)
	body := s[1 : len(s)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '"' || c < 0x20:
			return append(dst[:start], s...)
		case c != '\\':
			dst = append(dst, c)
			continue
		}
		if i+1 >= len(body) {
			return append(dst[:start], s...)
		}
		i++
		switch body[i] {
		case '"', '\\', '/':
			dst = append(dst, body[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(body[i+1:])
			if !ok {
				return append(dst[:start], s...)
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if lo, ok := hex4(strings.TrimPrefix(body[i+1:], `\u`)); ok && strings.HasPrefix(body[i+1:], `\u`) {
					if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
						r = pair
						i += 6
					}
				}
			}
			dst = utf8.AppendRune(dst, r)
		default:
			return append(dst[:start], s...)
		}
	}
	return dst
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for k := range 4 {
		d, ok := unhex(s[k])
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// appendHash appends the lower-case hex digest of s (as UTF-8).
func appendHash(dst []byte, name, s string) []byte {
	var sum []byte
	var scratch [64]byte
	switch name {
	case "MD5":
		h := md5.Sum(bytesOf(s))
		sum = append(scratch[:0], h[:]...)
	case "SHA1":
		h := sha1.Sum(bytesOf(s))
		sum = append(scratch[:0], h[:]...)
	case "SHA224":
		h := sha256.Sum224(bytesOf(s))
		sum = append(scratch[:0], h[:]...)
	case "SHA256":
		h := sha256.Sum256(bytesOf(s))
		sum = append(scratch[:0], h[:]...)
	case "SHA384":
		h := sha512.Sum384(bytesOf(s))
		sum = append(scratch[:0], h[:]...)
	case "SHA512":
		h := sha512.Sum512(bytesOf(s))
		sum = append(scratch[:0], h[:]...)
	}
	return hex.AppendEncode(dst, sum)
}

// sha2Name is the hash SHA2(s, bits) computes; false for another length.
func sha2Name(bits int64) (string, bool) {
	switch bits {
	case 224:
		return "SHA224", true
	case 256:
		return "SHA256", true
	case 384:
		return "SHA384", true
	case 512:
		return "SHA512", true
	}
	return "", false
}

// bytesOf is s's bytes without a copy, for functions that only read them.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// appendHexUpper is HEX of a string: its UTF-8 bytes in upper-case hex.
func appendHexUpper(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, upperHex[s[i]>>4], upperHex[s[i]&15])
	}
	return dst
}
