package catalog

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/sql"
)

// The computed columns Flink users declare to make a time attribute:
//
//	pt AS PROCTIME()                        processing time
//	ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3)     epoch seconds (0) or millis (3) as an instant
//	ts AS TO_TIMESTAMP(str [, 'format'])    text as a zone-less timestamp
//	x  AS other_column                      a second name for a physical column
//
// Any other deterministic expression over the physical columns is typed by
// ComputedType. A computed column reads physical columns only, as in Flink.

var (
	tsType  = &arrow.TimestampType{Unit: arrow.Millisecond}
	ltzType = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

// ComputedType types the expression of a computed column that is not one
// of the forms above, over the table's physical columns (phys; t holds the
// columns built so far), or says with a position why it cannot be one. It
// returns the Arrow type and Flink's name of it. The planner sets it: the
// catalog cannot compile expressions (without the planner, a table with
// such a column cannot be typed).
var ComputedType func(e sql.Expr, phys, t *Table) (arrow.DataType, string, error)

// generalComputed types col's expression through ComputedType.
func generalComputed(col Column, phys, t *Table) (Column, error) {
	if ComputedType == nil {
		return col, sql.Errorf(sql.ErrUnsupported, col.Computed.Pos(), "computed column %s cannot be typed here", col.Name)
	}
	dt, name, err := ComputedType(col.Computed, phys, t)
	col.Type, col.SQLType = dt, name
	return col, err
}

// computedColumn types the expression of a computed column against the
// table's physical columns (phys); t holds the columns built so far.
func computedColumn(def sql.ColumnDef, phys, t *Table) (Column, error) {
	def.Computed = sql.ResolveFieldRefs(def.Computed, func(n string) bool { return phys.Column(n) >= 0 }) // payload.ms
	col := Column{Name: def.Name.Name, At: def.Name.At, Computed: def.Computed}
	switch e := def.Computed.(type) {
	case *sql.ColumnRef:
		src, err := physicalArg(e, phys, t)
		if err != nil {
			return col, err
		}
		col.SQLType, col.Type = src.SQLType, src.Type
		return col, nil
	case *sql.FuncCall:
		switch e.Name {
		case "PROCTIME":
			if len(e.Args) != 0 {
				return col, sql.Errorf(sql.ErrInvalid, e.At, "PROCTIME() takes no arguments")
			}
			col.SQLType, col.Type, col.Proctime = "TIMESTAMP_LTZ(3)", ltzType, true
			col.NotNull = true
			return col, nil
		case "TO_TIMESTAMP_LTZ":
			if len(e.Args) == 2 && !isColumnRef(e.Args[0]) {
				return generalComputed(col, phys, t)
			}
			if len(e.Args) != 2 {
				return col, sql.Errorf(sql.ErrInvalid, e.At, "TO_TIMESTAMP_LTZ takes a number and a precision: TO_TIMESTAMP_LTZ(epoch_millis, 3)")
			}
			src, err := physicalArg(e.Args[0], phys, t)
			if err != nil {
				return col, err
			}
			switch src.Type.ID() {
			case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
			default:
				return col, sql.Errorf(sql.ErrUnsupported, e.Args[0].Pos(), "TO_TIMESTAMP_LTZ over %s is not supported yet; use an integer column", src.SQLType)
			}
			if p, ok := e.Args[1].(*sql.Literal); !ok || (p.Text != "0" && p.Text != "3") {
				return col, sql.Errorf(sql.ErrInvalid, e.Args[1].Pos(), "the precision of TO_TIMESTAMP_LTZ must be 0 (epoch seconds) or 3 (epoch milliseconds)")
			}
			col.SQLType, col.Type = "TIMESTAMP_LTZ(3)", ltzType
			return col, nil
		case "TO_TIMESTAMP":
			if len(e.Args) > 0 && !isColumnRef(e.Args[0]) {
				return generalComputed(col, phys, t)
			}
			if len(e.Args) != 1 && len(e.Args) != 2 {
				return col, sql.Errorf(sql.ErrInvalid, e.At, "TO_TIMESTAMP takes a string and an optional format: TO_TIMESTAMP(s, 'yyyy-MM-dd HH:mm:ss')")
			}
			src, err := physicalArg(e.Args[0], phys, t)
			if err != nil {
				return col, err
			}
			if src.Type.ID() != arrow.STRING {
				return col, sql.Errorf(sql.ErrInvalid, e.Args[0].Pos(), "TO_TIMESTAMP reads a STRING, not %s", src.SQLType)
			}
			if len(e.Args) == 2 {
				if f, ok := e.Args[1].(*sql.Literal); !ok || f.Kind != sql.LitString {
					return col, sql.Errorf(sql.ErrInvalid, e.Args[1].Pos(), "the format of TO_TIMESTAMP must be a string literal")
				}
			}
			col.SQLType, col.Type = "TIMESTAMP(3)", tsType
			return col, nil
		}
	}
	return generalComputed(col, phys, t)
}

func isColumnRef(e sql.Expr) bool {
	_, ok := e.(*sql.ColumnRef)
	return ok
}

// physicalArg resolves a function argument that must name a physical column.
func physicalArg(e sql.Expr, phys, t *Table) (Column, error) {
	c, ok := e.(*sql.ColumnRef)
	if !ok {
		return Column{}, sql.Errorf(sql.ErrUnsupported, e.Pos(), "computed columns over expressions are not supported yet; use a column name")
	}
	if i := t.Column(c.Name); i >= 0 && t.Columns[i].Computed != nil {
		return Column{}, sql.Errorf(sql.ErrInvalid, c.At, "computed column %s cannot be used in another computed column", t.Columns[i].Name)
	}
	p := phys.Column(c.Name)
	if p < 0 {
		return Column{}, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found in table %s%s", c.Name, t.Name, sql.DidYouMean(c.Name, phys.ColumnNames()))
	}
	if phys.Columns[p].Type == nil {
		return Column{}, sql.Errorf(sql.ErrInvalid, c.At, "column %s has a type wsql cannot read", c.Name)
	}
	return phys.Columns[p], nil
}

// TimestampFormat returns the format argument of TO_TIMESTAMP, or its
// default, Flink's 'yyyy-MM-dd HH:mm:ss'.
func TimestampFormat(f *sql.FuncCall) string {
	if len(f.Args) == 2 {
		if l, ok := f.Args[1].(*sql.Literal); ok {
			return l.Text
		}
	}
	return "yyyy-MM-dd HH:mm:ss"
}

// LTZPrecision returns the precision argument of TO_TIMESTAMP_LTZ (0 or 3).
func LTZPrecision(f *sql.FuncCall) int {
	if l, ok := f.Args[1].(*sql.Literal); ok {
		p, _ := strconv.Atoi(l.Text)
		return p
	}
	return 3
}
