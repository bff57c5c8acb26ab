package planner

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
)

// valuesTable plans the rows of FROM (VALUES ...) and INSERT ... VALUES
// as a bounded table read from them, and with v nil the one row without
// columns a SELECT without FROM reads. A column has the common type of its
// values (Flink's LogicalTypeMerging); into, for INSERT ... VALUES, are
// the sink's columns, which values of a narrower type are widened to.
func valuesTable(v *sql.Values, into []catalog.Column, at sql.Pos, opts Options) (*catalog.Table, error) {
	if v == nil {
		t := catalog.NewDerivedTable("EXPR$0", nil, -1, at)
		t.Attached = &valuesRows{rows: [][]expr.Expr{nil}}
		return t, nil
	}
	c := exprplan.NewCompiler(valuesScope{fns: opts.functions()}, exprOptions(opts))
	rows := make([][]expr.Expr, len(v.Rows))
	for r, row := range v.Rows {
		for _, e := range row {
			x, err := c.Compile(e)
			if err != nil {
				return nil, err
			}
			rows[r] = append(rows[r], x)
		}
	}
	cols := make([]catalog.Column, len(v.Rows[0]))
	for k := range cols {
		dt := arrow.DataType(arrow.Null)
		for r := range rows {
			t, ok := exprplan.CommonType(dt, rows[r][k].DataType())
			if !ok {
				return nil, sql.Errorf(sql.ErrInvalid, v.Rows[r][k].Pos(), "column %d of VALUES has no common type: %s and %s", k+1, function.TypeName(dt), function.TypeName(rows[r][k].DataType()))
			}
			dt = t
		}
		if k < len(into) && fitsColumn(rows, k, into[k].Type) {
			dt = into[k].Type
		}
		if dt.ID() == arrow.NULL {
			return nil, sql.Errorf(sql.ErrInvalid, v.Rows[0][k].Pos(), "column %d of VALUES is NULL in every row and has no type; CAST one of them, as in CAST(NULL AS INT)", k+1)
		}
		for r := range rows {
			x, err := c.To(rows[r][k], dt, v.Rows[r][k].Pos())
			if err != nil {
				return nil, err
			}
			rows[r][k] = x
		}
		name := fmt.Sprintf("EXPR$%d", k)
		if len(v.Columns) > 0 {
			name = v.Columns[k].Name
		}
		cols[k] = catalog.Column{Name: name, SQLType: sqlTypeName(dt), Type: dt, At: v.Rows[0][k].Pos()}
	}
	name := v.Alias
	if name == "" {
		name = "VALUES"
	}
	t := catalog.NewDerivedTable(name, cols, -1, at)
	t.Attached = &valuesRows{rows: rows}
	return t, nil
}

// fitsColumn reports whether column k of every row converts to the sink's
// type dt implicitly, as Flink's INSERT does: widened, or a number literal
// (whose value is checked as it is converted).
func fitsColumn(rows [][]expr.Expr, k int, dt arrow.DataType) bool {
	for _, row := range rows {
		x := row[k]
		_, lit := x.(*expr.Literal)
		if t, ok := exprplan.CommonType(x.DataType(), dt); !(ok && arrow.TypeEqual(t, dt)) && !(lit && exprplan.IsNumeric(x.DataType()) && exprplan.IsNumeric(dt)) {
			return false
		}
	}
	return true
}

// valuesRows is what a VALUES table reads: its rows, each value of its
// column's type. It stands where a Go program's attachment would.
type valuesRows struct{ rows [][]expr.Expr }

func (*valuesRows) Connector() string        { return "values" }
func (*valuesRows) SuppliesWatermarks() bool { return false }
func (*valuesRows) Release()                 {}

func (v *valuesRows) source(t *catalog.Table, opts Options) exec.Source {
	size := opts.BatchSize
	if size <= 0 {
		size = exec.DefaultBatchSize
	}
	return &exec.MakerSource{SourceSpec: exec.SourceSpec{Table: t.Name, Schema: t.PhysicalSchema(), BatchSize: size}, Maker: &exec.Values{Rows: v.rows}}
}

// valuesScope resolves the values of VALUES: constants, no columns.
type valuesScope struct{ fns *function.Registry }

func (vs valuesScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	switch x := e.(type) {
	case *sql.ColumnRef:
		if !isNiladic(x) {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "column %s not found in any table: VALUES rows are constants", x.Name)
		}
	case *sql.FuncCall:
		if err := checkKnownFunction(vs.fns, x); err != nil {
			return 0, arrow.Field{}, false, err
		}
		if isAggregateCall(vs.fns, x) {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "aggregate %s is not allowed in VALUES", x.Name)
		}
	}
	return 0, arrow.Field{}, false, nil
}
