package planner

import (
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/planner/intervalfold"
	"github.com/wsql/wsql/sql"
)

// Interval expressions are folded by planner/intervalfold; this is where
// a folded interval meets a time value, a comparison or a CAST.

// intervalCast is CAST(interval AS STRING); no other target is allowed,
// as intervals have no column type in wsql.
func (c *exprCompiler) intervalCast(e *sql.Cast, iv *sql.IntervalLiteral) (expr.Expr, error) {
	if tn := e.Type; (tn.Name == "STRING" || tn.Name == "VARCHAR") && tn.Elem == nil {
		return &expr.Literal{Type: tString, Str: intervalfold.Text(iv)}, nil
	}
	return nil, sql.Errorf(sql.ErrUnsupported, e.At, "an INTERVAL can only be CAST to STRING")
}

// intervalBinary handles a binary operator with an interval operand:
// time ± interval, interval comparisons, and interval arithmetic, which
// is only a value inside one of those. handled is false otherwise.
func (c *exprCompiler) intervalBinary(e *sql.Binary, op string) (x expr.Expr, handled bool, err error) {
	l, lok, err := intervalfold.Fold(e.L)
	if err != nil {
		return nil, true, err
	}
	r, rok, err := intervalfold.Fold(e.R)
	if err != nil {
		return nil, true, err
	}
	switch {
	case lok && rok:
		switch op {
		case "=", "<>", "!=", "<", "<=", ">", ">=":
			v, err := intervalfold.Compare(e, op, l, r)
			return &expr.Literal{Type: tBool, Int: int64(b2i(v))}, true, err
		}
	case lok && op == "+":
		x, err := c.timeArith(e, e.R, l)
		return x, true, err
	case rok && (op == "+" || op == "-"):
		x, err := c.timeArith(e, e.L, r)
		return x, true, err
	}
	if iv, ok, err := intervalfold.Fold(e); ok {
		if err != nil {
			return nil, true, err
		}
		return nil, true, intervalValueError(iv)
	}
	return nil, false, nil
}

// intervalValueError refuses an interval standing alone as a value.
func intervalValueError(iv *sql.IntervalLiteral) error {
	return sql.Errorf(sql.ErrUnsupported, iv.At, "an INTERVAL is not a column value yet; add it to a TIMESTAMP or DATE, compare it, or CAST it to STRING")
}
