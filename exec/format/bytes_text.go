package format

import (
	"encoding/base64"
	"encoding/hex"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Text of BYTES values. Flink prints bytes (the print connector, the SQL
// client's results) as a hex literal, x'0a0b' (its BINARY to STRING cast
// rule when printing); its csv and json formats write them as base64. CAST
// of BYTES to STRING reads the bytes as UTF-8 instead (exec/expr).

// AppendBytesLiteral appends b as Flink prints it: x'0a0b'.
func AppendBytesLiteral(dst, b []byte) []byte {
	dst = append(dst, 'x', '\'')
	dst = hex.AppendEncode(dst, b)
	return append(dst, '\'')
}

// AppendBase64 appends b in standard base64 with padding.
func AppendBase64(dst, b []byte) []byte {
	return base64.StdEncoding.AppendEncode(dst, b)
}

// CSVValueAppender is ValueAppender for the csv format: BYTES as base64.
func CSVValueAppender(arr arrow.Array, loc *time.Location) func(dst []byte, i int) []byte {
	if a, ok := arr.(*array.Binary); ok {
		return func(dst []byte, i int) []byte { return AppendBase64(dst, a.Value(i)) }
	}
	return ValueAppender(arr, loc)
}
