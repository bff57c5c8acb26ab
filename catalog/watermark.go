package catalog

import (
	"github.com/wsql/wsql/sql"
)

// Watermark is a table's `WATERMARK FOR column AS expr`, which makes the
// column the rowtime attribute. wsql understands the bounded
// out-of-orderness form `column - INTERVAL ...` (and `column` alone, a delay
// of zero), which is what Flink users write.
type Watermark struct {
	Column      string
	Index       int   // the column's index: the rowtime index
	DelayMillis int64 // the watermark is max(column - delay) over rows seen
	Expr        sql.Expr
	At          sql.Pos
}

// newWatermark checks a WATERMARK clause against the table's columns.
func newWatermark(def *sql.WatermarkDef, t *Table) (*Watermark, error) {
	idx := t.Column(def.Column.Name)
	if idx < 0 {
		return nil, sql.Errorf(sql.ErrInvalid, def.Column.At, "watermark column %q is not a column of table %s%s",
			def.Column.Name, t.Name, didYouMean(def.Column.Name, t.ColumnNames()))
	}
	col := t.Columns[idx]
	if col.SQLType[:min(len(col.SQLType), 9)] != "TIMESTAMP" {
		return nil, sql.Errorf(sql.ErrInvalid, def.Column.At, "watermark column %q must be TIMESTAMP(3) or TIMESTAMP_LTZ(3), not %s", col.Name, col.SQLType)
	}
	delay, err := watermarkDelay(def.Expr, col.Name)
	if err != nil {
		return nil, err
	}
	return &Watermark{Column: col.Name, Index: idx, DelayMillis: delay, Expr: def.Expr, At: def.At}, nil
}

// watermarkDelay reads the delay out of `col` or `col - INTERVAL ...`.
func watermarkDelay(e sql.Expr, column string) (int64, error) {
	isCol := func(e sql.Expr) bool {
		c, ok := e.(*sql.ColumnRef)
		return ok && c.Table == "" && (c.Name == column || equalFoldASCII(c.Name, column))
	}
	if isCol(e) {
		return 0, nil
	}
	if b, ok := e.(*sql.Binary); ok && b.Op == "-" && isCol(b.L) {
		if iv, ok := b.R.(*sql.IntervalLiteral); ok {
			if iv.Millis < 0 {
				return 0, sql.Errorf(sql.ErrInvalid, iv.At, "watermark delay %s must not be negative", iv.Text)
			}
			return iv.Millis, nil
		}
	}
	return 0, sql.Errorf(sql.ErrUnsupported, e.Pos(),
		"watermark expression not supported yet: write `%s` or `%s - INTERVAL '<n>' <unit>`", column, column)
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
