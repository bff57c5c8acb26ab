package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// OverCall is a function over an OVER window: ROW_NUMBER() OVER
// (PARTITION BY k ORDER BY v DESC), or an aggregate over one, SUM(x) OVER
// (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW).
type OverCall struct {
	At          Pos
	Func        *FuncCall
	PartitionBy []Expr
	OrderBy     []SortKey
	Frame       *Frame // nil when the OVER clause has none
}

// SortKey is an ORDER BY item.
type SortKey struct {
	Expr Expr
	Desc bool
}

// Frame is an OVER window's ROWS or RANGE BETWEEN start AND end.
type Frame struct {
	At         Pos
	Rows       bool // ROWS; otherwise RANGE
	Start, End FrameBound
}

// FrameBound is one end of a frame: UNBOUNDED PRECEDING, n PRECEDING,
// CURRENT ROW, n FOLLOWING or UNBOUNDED FOLLOWING.
type FrameBound struct {
	Unbounded bool
	Current   bool
	Following bool
	Offset    Expr // n of n PRECEDING / FOLLOWING; nil otherwise
}

func (e *OverCall) Pos() Pos { return e.At }
func (*OverCall) expr()      {}

// over lifts a function with an OVER clause.
func (l *lifter) over(e *ast.WindowFuncExpr, at Pos) (Expr, *Error) {
	name := strings.ToUpper(e.Name)
	spec, err := l.namedWindow(e.Spec, at)
	if err != nil {
		return nil, err
	}
	if e.IgnoreNull || e.FromLast {
		return nil, l.unsupported(at, "%s with IGNORE NULLS or FROM LAST is not supported", name)
	}
	f := &FuncCall{At: at, Name: name, Distinct: e.Distinct}
	if i := l.tokenAt(e.OriginTextPosition()); i >= 0 && i+2 < len(l.rw.toks) && l.rw.toks[i].kind == tokIdent {
		f.Name = strings.ToUpper(l.rw.toks[i].text) // the user's name, as for aggregates
		if l.rw.toks[i+1].isOp("(") && l.rw.toks[i+2].isOp("*") {
			f.Star = true // COUNT(*) OVER (...)
		}
	}
	if !f.Star {
		args, err := l.exprs(e.Args)
		if err != nil {
			return nil, err
		}
		f.Args = args
	}
	o := &OverCall{At: at, Func: f}
	if p := spec.PartitionBy; p != nil {
		for _, it := range p.Items {
			x, err := l.expr(it.Expr)
			if err != nil {
				return nil, err
			}
			o.PartitionBy = append(o.PartitionBy, x)
		}
	}
	if ob := spec.OrderBy; ob != nil {
		for _, it := range ob.Items {
			x, err := l.expr(it.Expr)
			if err != nil {
				return nil, err
			}
			o.OrderBy = append(o.OrderBy, SortKey{Expr: x, Desc: it.Desc})
		}
	}
	if fr := spec.Frame; fr != nil {
		frame := &Frame{At: l.findWord("ROWS", "RANGE"), Rows: fr.Type == ast.Rows}
		if frame.At == (Pos{}) {
			frame.At = at
		}
		if frame.Start, err = l.frameBound(&fr.Extent.Start, frame.At); err != nil {
			return nil, err
		}
		if frame.End, err = l.frameBound(&fr.Extent.End, frame.At); err != nil {
			return nil, err
		}
		o.Frame = frame
	}
	return o, nil
}

func (l *lifter) frameBound(b *ast.FrameBound, at Pos) (FrameBound, *Error) {
	switch {
	case b.Type == ast.CurrentRow:
		return FrameBound{Current: true}, nil
	case b.UnBounded:
		return FrameBound{Unbounded: true, Following: b.Type == ast.Following}, nil
	case b.Unit == ast.TimeUnitMicrosecond:
		// INTERVAL '1' HOUR PRECEDING, rewritten to INTERVAL n MICROSECOND
		if v, ok := b.Expr.(ast.ValueExpr); ok {
			if n, ok := v.GetValue().(int64); ok && n >= 0 && int(n) < len(l.rw.intervals) {
				return FrameBound{Offset: l.rw.intervals[n], Following: b.Type == ast.Following}, nil
			}
		}
		return FrameBound{}, l.unsupported(at, "write a frame's interval as INTERVAL '1' HOUR")
	case b.Unit != ast.TimeUnitInvalid:
		return FrameBound{}, l.unsupported(at, "write a frame's interval as INTERVAL '1' HOUR")
	}
	if v, ok := b.Expr.(ast.ValueExpr); ok {
		// the parser keeps no position for a frame's number
		if n, ok := v.GetValue().(int64); ok {
			return FrameBound{Offset: &Literal{At: at, Kind: LitInt, Text: strconv.FormatInt(n, 10)}, Following: b.Type == ast.Following}, nil
		}
		if n, ok := v.GetValue().(uint64); ok {
			return FrameBound{Offset: &Literal{At: at, Kind: LitInt, Text: strconv.FormatUint(n, 10)}, Following: b.Type == ast.Following}, nil
		}
	}
	x, err := l.expr(b.Expr)
	if err != nil {
		return FrameBound{}, err
	}
	return FrameBound{Offset: x, Following: b.Type == ast.Following}, nil
}

// namedWindow resolves OVER w and OVER (w ...) against the SELECT's
// WINDOW clause: the named window, with the ORDER BY and frame the
// reference adds (the SQL standard's rules: a reference never changes
// the named window's PARTITION BY, nor an ORDER BY it has).
func (l *lifter) namedWindow(spec ast.WindowSpec, at Pos) (ast.WindowSpec, *Error) {
	name := spec.Ref.L
	if spec.OnlyAlias {
		name = spec.Name.L
	}
	if name == "" {
		return spec, nil
	}
	var def *ast.WindowSpec
	var names []string
	for i := range l.windows {
		names = append(names, l.windows[i].Name.O)
		if l.windows[i].Name.L == name {
			def = &l.windows[i]
		}
	}
	if def == nil {
		return spec, Errorf(ErrInvalid, at, "window %s is not defined: add WINDOW %s AS (...) after FROM and WHERE%s", name, name, DidYouMean(name, names))
	}
	if def.Ref.L != "" {
		return spec, l.unsupported(at, "window %s refers to window %s: define each window in full", def.Name.O, def.Ref.O)
	}
	merged := *def
	if spec.OnlyAlias {
		return merged, nil
	}
	switch {
	case spec.PartitionBy != nil:
		return spec, Errorf(ErrInvalid, at, "OVER (%s PARTITION BY ...) cannot change the PARTITION BY of window %s", name, name)
	case spec.OrderBy != nil && def.OrderBy != nil:
		return spec, Errorf(ErrInvalid, at, "OVER (%s ORDER BY ...) cannot change the ORDER BY of window %s", name, name)
	case spec.OrderBy != nil:
		merged.OrderBy = spec.OrderBy
	}
	if spec.Frame != nil {
		merged.Frame = spec.Frame
	}
	return merged, nil
}
