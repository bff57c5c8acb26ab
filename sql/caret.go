package sql

import "github.com/wsql/wsql/sql/diag"

// Caret returns the line of src that pos points into, followed by a line
// with a caret under the position (diag.Caret); "" for no position.
func Caret(src string, pos Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return diag.Caret(src, pos.Line, pos.Col)
}
