package rowkind

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/windowop"
)

// Kind is the change a row carries. The zero Kind is Insert: every row of
// an append-only result is an insertion.
type Kind uint8

// The kinds, in Flink's order and with its short strings.
const (
	Insert       Kind = iota // +I: a new row
	UpdateBefore             // -U: the old value of an updated row, retracted
	UpdateAfter              // +U: the new value of an updated row
	Delete                   // -D: a row retracted for good
)

var shortStrings = [...]string{"+I", "-U", "+U", "-D"}

// String is Flink's short string of the kind: "+I", "-U", "+U" or "-D".
func (k Kind) String() string {
	if int(k) < len(shortStrings) {
		return shortStrings[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// IsRetraction tells whether the kind takes a row away (-U, -D) rather
// than putting one in (+I, +U).
func (k Kind) IsRetraction() bool { return k == UpdateBefore || k == Delete }

// Parse reads Flink's short string of a kind.
func Parse(s string) (Kind, bool) {
	switch s {
	case "+I":
		return Insert, true
	case "-U":
		return UpdateBefore, true
	case "+U":
		return UpdateAfter, true
	case "-D":
		return Delete, true
	}
	return 0, false
}

// Scan makes Kind a sql.Scanner: an update stream's op column scans into
// it from database/sql and from wsql's Rows.Scan, ScanStruct and RowsOf.
func (k *Kind) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("a row kind is the text +I, -U, +U or -D, not %T", src)
	}
	kind, ok := Parse(s)
	if !ok {
		return fmt.Errorf("%q is not a row kind (+I, -U, +U or -D)", s)
	}
	*k = kind
	return nil
}

// IsUpdateStream tells whether a result of schema is an update stream:
// its first column is the row kind column.
func IsUpdateStream(schema *arrow.Schema) bool {
	return schema.NumFields() > 0 && windowop.IsRowKindField(schema.Field(0))
}

// Column reads the kinds of a batch's rows: for an update stream, its row
// kind column; for any other batch, every row is an Insert.
type Column struct {
	ops *array.String // nil: append-only
}

// Of is the kind column of rec.
func Of(rec arrow.RecordBatch) Column {
	if !IsUpdateStream(rec.Schema()) {
		return Column{}
	}
	ops, _ := rec.Column(0).(*array.String)
	return Column{ops: ops}
}

// At is the kind of row i. A value that is no kind (never written by
// wsql's operators) reads as Insert.
func (c Column) At(i int) Kind {
	if c.ops == nil || c.ops.IsNull(i) {
		return Insert
	}
	v := c.ops.Value(i)
	if len(v) == 2 {
		switch {
		case v[0] == '-' && v[1] == 'U':
			return UpdateBefore
		case v[0] == '+' && v[1] == 'U':
			return UpdateAfter
		case v[0] == '-' && v[1] == 'D':
			return Delete
		}
	}
	return Insert
}
