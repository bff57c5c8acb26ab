package format

import (
	"bytes"
	"strings"
)

// The hints below say what to change when a bad row stops a read because
// of a common mistake: a header line, epoch numbers in a timestamp column,
// or zoned timestamps in a TIMESTAMP column. They are worked out only for
// the row that stops the read, never per row, and add a sentence to the
// error (ParseError.Hint).

// hintCSV adds a hint to e, the error of the CSV record in d.fields.
func (d *CSVDecoder) hintCSV(e *ParseError) {
	if d.looksLikeHeader() {
		if d.opts.IgnoreFirstLine {
			e.Hint = "This line looks like a header (its fields are the table's column names), " +
				"but 'csv.ignore-first-line' skips only the file's first line: remove it"
		} else {
			e.Hint = "This line looks like a header (its fields are the table's column names): " +
				"skip it with 'csv.ignore-first-line' = 'true'"
		}
		return
	}
	e.Hint = valueHint(e)
}

// hintJSON adds a hint to e, the error of a JSON line.
func (d *JSONDecoder) hintJSON(e *ParseError) {
	e.Hint = valueHint(e)
}

// looksLikeHeader says whether the record's fields are the column names.
func (d *CSVDecoder) looksLikeHeader() bool {
	if len(d.fields) != len(d.cols) {
		return false
	}
	for i, f := range d.fields {
		if !strings.EqualFold(string(bytes.TrimSpace(f)), d.cols[i].name) {
			return false
		}
	}
	return true
}

// valueHint is the hint for a value of a timestamp column that did not
// parse: epoch seconds or milliseconds, or (in a zone-less TIMESTAMP) an
// instant with 'Z' or a UTC offset. Both formats read the ISO-8601 'T'
// form and the SQL form alike, whatever 'json.timestamp-format.standard'
// says (it sets the form written), so the type is the whole fix.
func valueHint(e *ParseError) string {
	if !strings.HasPrefix(e.Type, "TIMESTAMP") { // TIMESTAMP(3) or TIMESTAMP_LTZ(3)
		return ""
	}
	zoned := strings.HasPrefix(e.Type, "TIMESTAMP_LTZ")
	v := strings.TrimSpace(e.Value)
	if unit, precision, ok := epochUnit(v); ok {
		name := "epoch_" + unit
		return "The value looks like epoch " + map[string]string{"s": "seconds", "ms": "milliseconds"}[unit] +
			": declare the column BIGINT and compute the timestamp from it:\n" +
			"  " + name + " BIGINT,\n" +
			"  " + e.Field + " AS TO_TIMESTAMP_LTZ(" + name + ", " + precision + "),"
	}
	if !zoned && hasZone(v) {
		return "The value has a time zone ('Z' or a UTC offset), which TIMESTAMP(3) does not take: " +
			"declare the column TIMESTAMP_LTZ(3), which reads ISO-8601 text with a zone as it is, no format option needed"
	}
	return ""
}

// epochUnit says whether v is an integer of the length of a recent epoch
// time in seconds (10 digits) or milliseconds (13 digits), and the
// TO_TIMESTAMP_LTZ precision that reads it.
func epochUnit(v string) (unit, precision string, ok bool) {
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return "", "", false
		}
	}
	switch len(v) {
	case 10:
		return "s", "0", true
	case 13:
		return "ms", "3", true
	}
	return "", "", false
}

// hasZone says whether v is a date and time followed by 'Z' or a UTC
// offset (+HH:mm, +HHmm or +HH).
func hasZone(v string) bool {
	if len(v) < 17 || v[4] != '-' || v[7] != '-' || (v[10] != 'T' && v[10] != ' ') {
		return false
	}
	if v[len(v)-1] == 'Z' || v[len(v)-1] == 'z' {
		return true
	}
	return strings.ContainsAny(v[11:], "+-")
}
