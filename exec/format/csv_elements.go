package format

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// Flink's csv format reads an ARRAY or a ROW of scalars as one field of
// elements (a ROW's fields in order) separated by
// 'csv.array-element-delimiter', each read as a field of its type is; the
// column is a nestedColumn of scalar leaves, as the JSON decoder's. Its
// elements must be scalars, as in Flink ("Only simple types are supported
// in the second level nesting").
func (c *csvColumn) initElements(f arrow.Field) error {
	n, err := newNestedColumn(f, f.Name)
	for k := 0; err == nil && k < len(n.children); k++ {
		if child := n.children[k]; child.kind != nestedLeaf {
			err = fmt.Errorf("column %s: the csv format reads only scalar elements of an ARRAY or ROW, as Flink's does, not %s", f.Name, SQLTypeName(child.dt))
		}
	}
	c.kind, c.sqlType, c.nested = csvNested, SQLTypeName(f.Type), n
	return err
}

// appendElements reads field f of an ARRAY or ROW column; it returns a
// message for a bad element or field count.
func (d *CSVDecoder) appendElements(c *csvColumn, f []byte) string {
	n, delim := c.nested, []byte(d.opts.ArrayElementDelimiter)
	if len(delim) == 0 {
		delim = []byte{';'}
	}
	if n.kind == nestedStruct {
		if got := bytes.Count(f, delim) + 1; got != len(n.children) {
			return fmt.Sprintf("expected %d fields separated by %q, found %d", len(n.children), delim, got)
		}
		k := 0
		for elem := range bytes.SplitSeq(f, delim) {
			if msg := d.appendElement(&n.children[k].leaf, elem); msg != "" {
				return fmt.Sprintf("field %s: %s", n.children[k].path, msg)
			}
			k++
		}
		n.valid = append(n.valid, true)
		return ""
	}
	count := int32(0)
	for elem := range bytes.SplitSeq(f, delim) {
		if len(f) == 0 {
			break // an empty field that is not NULL: an empty ARRAY
		}
		if msg := d.appendElement(&n.children[0].leaf, elem); msg != "" {
			return fmt.Sprintf("element %d: %s", count+1, msg)
		}
		count++
	}
	n.valid = append(n.valid, true)
	n.offs = append(n.offs, n.offs[len(n.offs)-1]+count)
	return ""
}

// appendElement reads one element as appendRow reads an unquoted field.
func (d *CSVDecoder) appendElement(c *csvColumn, f []byte) string {
	lit := d.opts.NullLiteral
	switch {
	case lit != "" && string(f) == lit, len(csvTrim(f)) == 0 && (!c.kind.variable() || lit == ""):
		if c.notNull {
			return "NULL in NOT NULL element"
		}
		c.appendNull()
		return ""
	case c.kind == csvBinary:
		return c.appendBase64(f)
	case !c.kind.variable():
		return d.appendValue(c, csvTrim(f))
	case !utf8.Valid(f):
		return "invalid UTF-8"
	}
	c.data = append(c.data, f...)
	c.offs = append(c.offs, int32(len(c.data)))
	c.valid = append(c.valid, true)
	return ""
}
