package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// TiDB reads TRIM's forms into a call trim(x [, chars [, direction]]).
// When only a direction is written it makes up chars (a blank) without a
// position; the user's tokens tell that form apart from TRIM(LEADING ' '
// FROM x): there, FROM follows the direction.

var trimModes = map[ast.TrimDirectionType]string{
	ast.TrimBothDefault: "BOTH", ast.TrimBoth: "BOTH", ast.TrimLeading: "LEADING", ast.TrimTrailing: "TRAILING",
}

func (l *lifter) trim(e *ast.FuncCallExpr, at Pos) (Expr, *Error) {
	t := &Trim{At: at, Mode: "BOTH"}
	var err *Error
	if len(e.Args) == 0 || len(e.Args) > 3 {
		return nil, l.unsupported(at, "this form of TRIM is not supported")
	}
	if t.X, err = l.expr(e.Args[0]); err != nil {
		return nil, err
	}
	if len(e.Args) == 3 {
		d, ok := e.Args[2].(*ast.TrimDirectionExpr)
		if !ok || trimModes[d.Direction] == "" {
			return nil, l.unsupported(at, "this form of TRIM is not supported")
		}
		t.Mode = trimModes[d.Direction]
		if i := l.tokenAt(e.OriginTextPosition()); i >= 0 && i+3 < len(l.rw.toks) &&
			(l.rw.toks[i+2].is("FROM") || l.rw.toks[i+3].is("FROM")) {
			return t, nil
		}
	}
	if len(e.Args) >= 2 {
		if t.Chars, err = l.expr(e.Args[1]); err != nil {
			return nil, err
		}
	}
	return t, nil
}
