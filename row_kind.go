package wsql

import "github.com/wsql/wsql/exec/rowkind"

// RowKind is a result row's change, as Flink's: "+I", "-U", "+U", "-D".
// An update stream's op column scans into it (Scan, RowsOf, database/sql).
type RowKind = rowkind.Kind

// The row kinds; every row of an append-only result is RowKindInsert.
const (
	RowKindInsert       = rowkind.Insert
	RowKindUpdateBefore = rowkind.UpdateBefore
	RowKindUpdateAfter  = rowkind.UpdateAfter
	RowKindDelete       = rowkind.Delete
)

// RowKind is the current row's kind (see NextRow): an update stream's op;
// RowKindInsert in any other result.
func (r *Rows) RowKind() RowKind {
	if c := &r.scan; c.batch != nil && c.batch == r.cur {
		return rowkind.Of(c.batch).At(c.row)
	}
	return RowKindInsert
}

// IsUpdateStream tells whether a result of schema is an update stream:
// its first column is op, the row kind.
func IsUpdateStream(schema *Schema) bool { return rowkind.IsUpdateStream(schema) }
