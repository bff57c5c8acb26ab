package format

import (
	"bytes"
	"strings"
)

// The hints below say what to change when a bad row stops a read because
// of a common mistake: a header line. They are worked out only for the row that stops the
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
	}
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
