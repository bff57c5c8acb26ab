package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/planner/exprplan"
	"github.com/wsql/wsql/sql"
)

// A computed column is any deterministic expression over the table's
// physical columns (Flink's computed columns); the catalog has it typed
// here when the table is declared, and the stream compiles it over the

func init() { catalog.ComputedType = typeComputed }

// nonDeterministic are the functions whose value is not a function of the
// row: a computed column over them would change between reads. PROCTIME()
// is the one Flink allows, as a column of its own (catalog/computed.go).
var nonDeterministic = map[string]bool{
	"RAND": true, "RAND_INTEGER": true, "UUID": true, "NOW": true, "CURRENT_TIMESTAMP": true,
	"LOCALTIMESTAMP": true, "LOCALTIME": true, "CURRENT_TIME": true, "CURRENT_DATE": true,
	"CURRENT_ROW_TIMESTAMP": true, "PROCTIME": true, "CURRENT_WATERMARK": true,
}

func typeComputed(e sql.Expr, phys, t *catalog.Table) (arrow.DataType, string, error) {
	fields := make([]arrow.Field, len(phys.Columns))
	for i, c := range phys.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: true}
	}
	x, err := exprplan.CompileExpr(e, computedScope{fields: fields, t: t}, exprplan.ExprOptions{})
	if err != nil {
		return nil, "", err
	}
	if x.DataType().ID() == arrow.NULL {
		return nil, "", sql.Errorf(sql.ErrInvalid, e.Pos(), "a computed column needs a type: CAST the NULL, as in CAST(NULL AS INT)")
	}
	return x.DataType(), sqlTypeName(x.DataType()), nil
}

// computedScope resolves a computed column's expression: names are the
// physical columns (fields), functions deterministic scalar ones.
type computedScope struct {
	fields []arrow.Field
	t      *catalog.Table // the table, for its other columns' names
}

func (sc computedScope) Resolve(e sql.Expr) (int, arrow.Field, bool, error) {
	var name string
	var at sql.Pos
	switch x := e.(type) {
	case *sql.ColumnRef:
		if i := sc.index(x.Name); i >= 0 {
			return i, sc.fields[i], true, nil
		}
		if !isNiladic(x) || (sc.t != nil && sc.t.Column(x.Name) >= 0) {
			if sc.t != nil && sc.t.Column(x.Name) >= 0 {
				return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "computed column %s cannot be used in another computed column", x.Name)
			}
			names := make([]string, len(sc.fields))
			for i, f := range sc.fields {
				names[i] = f.Name
			}
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "column %s not found among the physical columns%s", x.Name, sql.DidYouMean(x.Name, names))
		}
		name, at = strings.ToUpper(x.Name), x.At
	case *sql.FuncCall:
		if err := checkKnownFunction(builtins, x); err != nil {
			return 0, arrow.Field{}, false, err
		}
		if isAggregateCall(builtins, x) {
			return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, x.At, "aggregate %s is not allowed in a computed column", x.Name)
		}
		name, at = x.Name, x.At
		if name == "UNIX_TIMESTAMP" && len(x.Args) > 0 {
			name = "" // of a given time, not of now
		}
	}
	if nonDeterministic[name] {
		return 0, arrow.Field{}, false, sql.Errorf(sql.ErrInvalid, at, "%s is not deterministic: a computed column must give the same value for the same row; only PROCTIME() may stand alone as a column", name)
	}
	return 0, arrow.Field{}, false, nil
}

func (sc computedScope) index(name string) int {
	for i, f := range sc.fields {
		if f.Name == name {
			return i
		}
	}
	for i, f := range sc.fields {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}
