package format

import (
	"bytes"
	"strings"
)

// The hints below say what to change when a bad row stops a read because
// of a common mistake: a header line or epoch numbers in a timestamp
// column. They are worked out only for the row that stops the
// read, never per row, and add a sentence to the error (ParseError.Hint).

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
// parse: epoch seconds or milliseconds.
func valueHint(e *ParseError) string {
	if !strings.HasPrefix(e.Type, "TIMESTAMP") { // TIMESTAMP(3) or TIMESTAMP_LTZ(3)
		return ""
	}
	v := strings.TrimSpace(e.Value)
	if unit, precision, ok := epochUnit(v); ok {
		name := "epoch_" + unit
		return "The value looks like epoch " + map[string]string{"s": "seconds", "ms": "milliseconds"}[unit] +
			": declare the column BIGINT and compute the timestamp from it:\n" +
			"  " + name + " BIGINT,\n" +
			"  " + e.Field + " AS TO_TIMESTAMP_LTZ(" + name + ", " + precision + "),"
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
