package format

import (
	"encoding/base64"
	"slices"

	"github.com/wsql/wsql/exec/format/jsontext"
)

// BYTES, BINARY(n) and VARBINARY(n) columns in text: Flink's csv and json
// formats write bytes as base64 (Jackson's binary text, the standard
// alphabet with padding) and read them back the same way. wsql also reads
// base64 without padding.

func (k csvKind) variable() bool { return k == csvString || k == csvBinary }

// appendBase64 decodes a base64 field into the column, without allocating
// once the column's buffer has grown.
func (c *csvColumn) appendBase64(text []byte) string {
	text = csvTrim(text)
	enc := base64.StdEncoding
	if len(text)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	n := len(c.data)
	c.data = slices.Grow(c.data, enc.DecodedLen(len(text)))
	m, err := enc.Decode(c.data[n:n+enc.DecodedLen(len(text))], text)
	if err != nil {
		c.data = c.data[:n]
		return "expected base64 bytes"
	}
	c.data = c.data[:n+m]
	c.offs = append(c.offs, int32(len(c.data)))
	c.valid = append(c.valid, true)
	return ""
}

// appendBinary reads a JSON value into a BYTES column: a string of base64.
func (d *JSONDecoder) appendBinary(c *csvColumn, isString, escaped bool, raw []byte) string {
	if !isString {
		return "expected a base64 string"
	}
	if escaped {
		d.scratch = jsontext.Unescape(d.scratch[:0], raw)
		raw = d.scratch
	}
	return c.appendBase64(raw)
}
