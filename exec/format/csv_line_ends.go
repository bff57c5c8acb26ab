package format

import "bytes"

// CSV line ends are "\n", "\r\n" and a lone "\r" (old Mac files), as
// DuckDB's and Python's CSV readers accept them; "\r\n" is one line end.
// A "\r" as the last byte read so far may still be the first half of a
// "\r\n": the decoders wait for the next byte (or the end of the input)
// before they end a record there.

// csvLineEndWindow is the first stretch csvLineEnd searches: a line is
// usually short, and searching the whole buffer for a '\n' a CR-only file
// does not have would make every line cost the buffer's length.
const csvLineEndWindow = 4096

// csvLineEnd returns the index of the first '\r' or '\n' in b, or -1. It
// searches windows that double in size, so its cost grows with the
// distance to the line end, not with len(b).
func csvLineEnd(b []byte) int {
	lo, w := 0, csvLineEndWindow
	for {
		hi := min(len(b), lo+w)
		seg := b[lo:hi]
		if k := bytes.IndexByte(seg, '\n'); k >= 0 {
			if c := bytes.IndexByte(seg[:k], '\r'); c >= 0 {
				return lo + c
			}
			return lo + k
		}
		if c := bytes.IndexByte(seg, '\r'); c >= 0 {
			return lo + c
		}
		if hi == len(b) {
			return -1
		}
		lo, w = hi, 2*w
	}
}

// csvLineEndLen is the length of the line end at b[i] (a '\r' or '\n'):
// 1, or 2 for "\r\n". ok is false when b[i] is a '\r' that ends b and more
// input may follow: it may be the start of a "\r\n".
func csvLineEndLen(b []byte, i int, atEOF bool) (n int, ok bool) {
	if b[i] == '\n' {
		return 1, true
	}
	if i+1 < len(b) {
		if b[i+1] == '\n' {
			return 2, true
		}
		return 1, true
	}
	return 1, atEOF
}

// csvCountLineEnds counts the line ends in b ("\r\n" once).
func csvCountLineEnds(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if bytes.IndexByte(b, '\r') < 0 {
		return n
	}
	for i, c := range b {
		if c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			n++
		}
	}
	return n
}

// csvLastLineEnd returns the length of b's prefix that ends at its last
// complete line end (0 for none); a '\r' ending b does not count, as more
// input follows.
func csvLastLineEnd(b []byte) int {
	lf := bytes.LastIndexByte(b, '\n')
	tail := b[lf+1:]
	cr := bytes.LastIndexByte(tail, '\r')
	if cr == len(tail)-1 && cr >= 0 {
		cr = bytes.LastIndexByte(tail[:cr], '\r') // the last byte may be half a "\r\n"
	}
	if cr >= 0 {
		return lf + 1 + cr + 1
	}
	return lf + 1
}
