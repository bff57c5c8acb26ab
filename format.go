package wsql

import (
	"errors"
	"io"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// NewCSVWriter writes results as CSV: a header of column names, then rows;
// TIMESTAMP as yyyy-MM-dd HH:mm:ss.SSS, NULL as an empty field.
// TIMESTAMP_LTZ values print in loc.
func NewCSVWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	return writer.NewCSVWriter(w, schema, loc)
}

// NewJSONWriter writes results as JSON lines: one object per row, keyed by
// the column names, in the form of the json format ('json' tables read it
// back). TIMESTAMP is "yyyy-MM-dd HH:mm:ss.SSS", NULL is null, and
// TIMESTAMP_LTZ values are the wall time in loc with its offset ('Z' for
// UTC). An update stream's op column is a field like the others.
func NewJSONWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	return writer.NewJSONWriter(w, schema, loc, format.TimestampSQL)
}

// NewArrowWriter writes results as an Arrow IPC stream (the format of
// pyarrow.ipc.open_stream and DuckDB's arrow reader): the schema, one
// record batch per result batch as windows fire, and the end-of-stream
// marker on Close. One stream holds one result; it is binary output.
func NewArrowWriter(w io.Writer, schema *arrow.Schema) ResultWriter {
	return writer.NewArrowWriter(w, schema)
}

// NewTableWriter writes results as an aligned text table for terminals.
func NewTableWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	return writer.NewTableWriter(w, schema, loc)
}

// NewChangelogWriter writes results as Flink's SQL client's changelog mode:
// aligned columns without borders, an update stream's op column first.
func NewChangelogWriter(w io.Writer, schema *arrow.Schema, loc *time.Location) ResultWriter {
	return writer.NewChangelogWriter(w, schema, loc)
}

// Screen is the terminal NewMaterializedTableWriter draws on; zero: none.
type Screen = writer.Screen

// NewMaterializedTableWriter writes results as Flink's SQL client's table
// mode: the materialised rows, drawn in place on a terminal as they change,
// and in full when the result ends (only then, elsewhere).
func NewMaterializedTableWriter(w io.Writer, schema *arrow.Schema, loc *time.Location, screen Screen) ResultWriter {
	return writer.NewMaterializedTableWriter(w, schema, loc, screen)
}

// FormatError renders err for a person reading src: SQL errors show
// line:column, the line of src and a caret under the position. An error
// about the declaration of a table created by an earlier Run (a query
// reading a file that is missing) shows the line of that CREATE TABLE
// instead, naming it: "2:45 of CREATE TABLE clicks: ...".
func FormatError(src string, err error) string { return FormatFileError("", src, err) }

// FormatFileError is FormatError for src read from the file named file:
// SQL errors show file:line:column, as errors in data files name theirs.
// An empty file is FormatError.
func FormatFileError(file, src string, err error) string {
	var list sql.ErrorList
	if errors.As(err, &list) {
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = formatOne(file, src, e)
		}
		return strings.Join(parts, "\n")
	}
	var one *sql.Error
	if errors.As(err, &one) {
		return formatOne(file, src, one)
	}
	return "error: " + err.Error()
}

func formatOne(file, src string, e *sql.Error) string {
	where := "" // an error without a position has no place in src to point at
	switch {
	case e.Decl != nil:
		// the position is in an earlier statement: its own text has the caret
		src = e.Decl.Src
		where = e.Pos.String() + " of " + e.Decl.Name + ": "
	case file != "" && e.Pos.IsValid():
		where = file + ":" + e.Pos.String() + ": "
	case file != "":
		where = file + ": "
	case e.Pos.IsValid():
		where = e.Pos.String() + ": "
	}
	s := "error: " + where + e.Msg
	if c := sql.Caret(src, e.Pos); c != "" {
		s += "\n" + c
	}
	return s
}
