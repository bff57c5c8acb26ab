package exprplan

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/timeprecision"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner/intervalfold"
	"github.com/wsql/wsql/planner/nestedcast"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// Scope maps expression nodes to input columns. The compiler asks it
// about every node before compiling the node itself: ok means "this node is
// input column index" (a column reference, and in a grouped query a window
// aggregate or window property the window operator computed). An error is
// returned as is (e.g. an unknown column with a suggestion).
type Scope interface {
	Resolve(e sql.Expr) (index int, field arrow.Field, ok bool, err error)
}

// RowtimeScope is a scope that tells which expressions read the rows'
// rowtime attribute (CURRENT_WATERMARK takes only that).
type RowtimeScope interface {
	Scope
	IsRowtime(x expr.Expr) bool
}

// ExprOptions are the per-query values expressions depend on.
type ExprOptions struct {
	// Location is the session time zone ('table.local-time-zone'):
	// TIMESTAMP_LTZ values are read and printed in it. nil is UTC.
	Location *time.Location
	// Now is the query's start time in epoch milliseconds, the value of
	// CURRENT_TIMESTAMP for the whole query (taken once, as Flink does in
	// batch mode, so a query's results do not depend on when a row ran).
	Now int64
	// Functions are the functions calls resolve to; nil is the built-ins.
	Functions *function.Registry
}

// CompileExpr type-checks e and compiles it into an evaluable expression.
// Errors are *sql.Error at the offending node.
func CompileExpr(e sql.Expr, scope Scope, opts ExprOptions) (expr.Expr, error) {
	return NewCompiler(scope, opts).Compile(e)
}

// NewCompiler is a compiler of expressions over scope, for a caller that
// compiles several and converts them (VALUES rows to their common types).
func NewCompiler(scope Scope, opts ExprOptions) *Compiler {
	c := &Compiler{scope: scope, opts: opts, fns: opts.Functions, columnPrecisions: map[*expr.ColumnExpr]int{}}
	if c.fns == nil {
		c.fns = builtins
	}
	return c
}

// Compile compiles e (CompileExpr).
func (c *Compiler) Compile(e sql.Expr) (expr.Expr, error) { return c.compile(e) }

// CommonType is the type two values meet in (CASE, COALESCE, VALUES), as
// Flink's LogicalTypeMerging finds it; ok is false when there is none.
func CommonType(a, b arrow.DataType) (arrow.DataType, bool) { return commonType(a, b) }

// IsNumeric reports an integer, floating or DECIMAL type.
func IsNumeric(dt arrow.DataType) bool { return isNumeric(dt) }

// CompileCondition compiles a WHERE or HAVING condition, which must be
// BOOLEAN.
func CompileCondition(e sql.Expr, scope Scope, opts ExprOptions) (expr.Expr, error) {
	x, err := CompileExpr(e, scope, opts)
	if err != nil {
		return nil, err
	}
	if x.DataType().ID() == arrow.NULL {
		return expr.NullLiteral(arrow.FixedWidthTypes.Boolean), nil
	}
	if x.DataType().ID() != arrow.BOOL {
		return nil, sql.Errorf(sql.ErrInvalid, e.Pos(), "a condition must be BOOLEAN, got %s", typeName(x.DataType()))
	}
	return x, nil
}

// Compiler compiles expressions over one scope; it is also what the
// function registry's kernels compile calls with (function.Compiler).
type Compiler struct {
	scope Scope
	opts  ExprOptions
	lets  int                // Let values named so far (their names in EXPLAIN)
	fns   *function.Registry // the functions calls resolve to
	// columnPrecisions are the precisions of the columns compiled that
	// carry one (timeprecision): TIMESTAMP(2) in milliseconds
	columnPrecisions map[*expr.ColumnExpr]int
}

var (
	tInt     = arrow.PrimitiveTypes.Int32
	tBigint  = arrow.PrimitiveTypes.Int64
	tDouble  = arrow.PrimitiveTypes.Float64
	tString  = arrow.BinaryTypes.String
	tBool    = arrow.FixedWidthTypes.Boolean
	tDate    = arrow.FixedWidthTypes.Date32
	tNull    = arrow.Null
	tTS      = &arrow.TimestampType{Unit: arrow.Millisecond}
	tLTZ     = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	msPerDay = int64(86_400_000)
)

// The type tests the function registry's kernels use too.
var (
	typeName   = function.TypeName
	isNull     = function.IsNull
	isInteger  = function.IsInteger
	isString   = function.IsString
	isTemporal = function.IsTemporal
)

func isFloat(dt arrow.DataType) bool {
	return dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT64
}

func isDecimal(dt arrow.DataType) bool { return dt.ID() == arrow.DECIMAL128 }

func isNumeric(dt arrow.DataType) bool { return isInteger(dt) || isFloat(dt) || isDecimal(dt) }

func isTimestamp(dt arrow.DataType) bool { return dt.ID() == arrow.TIMESTAMP }

// intWidth orders the integer types.
func intWidth(dt arrow.DataType) int {
	return map[arrow.Type]int{arrow.INT8: 1, arrow.INT16: 2, arrow.INT32: 3, arrow.INT64: 4}[dt.ID()]
}

// commonNumeric is the type two numbers are computed in, Flink's
// LogicalTypeMerging.findCommonType: any DOUBLE, or a DECIMAL with a
// float, gives DOUBLE; FLOAT with an integer FLOAT; integers the wider one;
// a DECIMAL with a DECIMAL or an integer a DECIMAL (commonDecimal).
func commonNumeric(a, b arrow.DataType) arrow.DataType {
	switch {
	case isNull(a):
		return b
	case isNull(b):
		return a
	case arrow.TypeEqual(a, b):
		return a
	case a.ID() == arrow.FLOAT64 || b.ID() == arrow.FLOAT64:
		return tDouble
	case isDecimal(a) || isDecimal(b):
		if isFloat(a) || isFloat(b) {
			return tDouble
		}
		return commonDecimal(a, b)
	case a.ID() == arrow.FLOAT32 || b.ID() == arrow.FLOAT32:
		return arrow.PrimitiveTypes.Float32
	case intWidth(a) >= intWidth(b):
		return a
	}
	return b
}

// commonDecimal is the DECIMAL two exact numbers (one at least a DECIMAL)
// meet in, as Flink's createCommonExactNumericType: the most integer digits
// of either, then the larger scale as far as 38 digits allow. An integer
// counts as DECIMAL(3|5|10|19, 0) by its width.
func commonDecimal(a, b arrow.DataType) *arrow.Decimal128Type {
	pa, sa := exactDigits(a)
	pb, sb := exactDigits(b)
	d := min(max(pa-sa, pb-sb), 38)
	s := min(max(sa, sb), 38-d)
	return &arrow.Decimal128Type{Precision: d + s, Scale: s}
}

// exactDigits is the precision and scale of a DECIMAL or an integer type.
func exactDigits(dt arrow.DataType) (precision, scale int32) {
	switch dt.ID() {
	case arrow.DECIMAL128:
		d := dt.(*arrow.Decimal128Type)
		return d.Precision, d.Scale
	case arrow.INT8:
		return 3, 0
	case arrow.INT16:
		return 5, 0
	case arrow.INT32:
		return 10, 0
	}
	return 19, 0
}

// commonType is the type values of a and b are brought to when they meet
// (comparison, CASE, COALESCE, IN): numbers by commonNumeric, DATE with
// TIMESTAMP as the timestamp.
func commonType(a, b arrow.DataType) (arrow.DataType, bool) {
	switch {
	case isNull(a):
		return b, true
	case isNull(b), arrow.TypeEqual(a, b):
		return a, true
	case isNumeric(a) && isNumeric(b):
		return commonNumeric(a, b), true
	case isTimestamp(a) && isTimestamp(b), a.ID() == arrow.TIME32 && b.ID() == arrow.TIME32:
		return catalog.FinerTemporal(a, b)
	case isTimestamp(a) && b.ID() == arrow.DATE32:
		return a, true
	case a.ID() == arrow.DATE32 && isTimestamp(b):
		return b, true
	case format.IsNestedType(a) && format.IsNestedType(b):
		return nestedcast.Common(a, b, commonType)
	}
	return nil, false
}

// compareType is the type l and r are compared in: their common type, but
// DOUBLE for two exact numbers whose common DECIMAL would round one side
// (more than 38 digits in all), since rounding could make unequal values
// equal.
func compareType(l, r arrow.DataType) (arrow.DataType, bool) {
	dt, ok := commonType(l, r)
	if !ok || !isDecimal(dt) {
		return dt, ok
	}
	_, ls := exactDigits(l)
	_, rs := exactDigits(r)
	if dt.(*arrow.Decimal128Type).Scale < max(ls, rs) {
		return tDouble, true
	}
	return dt, true
}

// to converts x to type dt: a NULL literal becomes a typed NULL, a
// literal is converted now (errors at pos), anything else gets a Cast.
func (c *Compiler) to(x expr.Expr, dt arrow.DataType, pos sql.Pos) (expr.Expr, error) {
	if arrow.TypeEqual(x.DataType(), dt) {
		return x, nil
	}
	if isNull(x.DataType()) {
		return expr.NullLiteral(dt), nil
	}
	if l, ok := x.(*expr.Literal); ok {
		if r, ok := rescaleLiteral(l, dt); ok {
			return r, nil
		}
	}
	if format.IsNestedType(dt) && format.IsNestedType(x.DataType()) {
		return c.nestedCast(x, dt, false, pos, format.SQLTypeName(dt))
	}
	return c.fold(pos, &expr.Cast{X: x, To: dt, Loc: c.opts.Location}, x)
}

// fold evaluates e now when every argument is a literal, so constant
// subexpressions cost nothing per row and their errors point at pos.
func (c *Compiler) fold(pos sql.Pos, e expr.Expr, args ...expr.Expr) (expr.Expr, error) {
	for _, a := range args {
		if _, ok := a.(*expr.Literal); !ok {
			return e, nil
		}
	}
	l, err := expr.Fold(e)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, pos, "%v", err)
	}
	return l, nil
}

func (c *Compiler) compile(e sql.Expr) (expr.Expr, error) {
	idx, f, ok, err := c.scope.Resolve(e)
	if err != nil {
		return nil, err
	}
	if ok {
		col := &expr.ColumnExpr{Index: idx, Name: f.Name, Type: f.Type}
		if p := timeprecision.Of(f); p >= 0 {
			c.columnPrecisions[col] = p
		}
		return col, nil
	}
	switch e := e.(type) {
	case *sql.ColumnRef:
		if fn := strings.ToUpper(e.Name); e.Table == "" && c.fns.IsBare(fn) {
			return c.function(&sql.FuncCall{At: e.At, Name: fn})
		}
		return nil, sql.Errorf(sql.ErrInvalid, e.At, "column %s not found", e.Name)
	case *sql.Literal:
		return literal(e)
	case *sql.IntervalLiteral:
		return intervalfold.Value(e), nil
	case *sql.Unary:
		return c.unary(e)
	case *sql.Binary:
		return c.binary(e)
	case *sql.IsNull:
		x, err := c.compile(e.X)
		if err != nil {
			return nil, err
		}
		return c.fold(e.At, &expr.IsNull{X: x, Not: e.Not}, x)
	case *sql.Cast:
		return c.cast(e)
	case *sql.FuncCall:
		return c.function(e)
	case *sql.In:
		return c.in(e)
	case *sql.Between:
		return c.between(e)
	case *sql.Like:
		return c.like(e)
	case *sql.Case:
		return c.caseExpr(e)
	case *sql.Extract:
		x, err := c.compile(e.X)
		if err != nil {
			return nil, err
		}
		return c.extract(e.At, e.Unit, x, e.X.Pos())
	case *sql.Trim:
		return c.trim(e)
	case *sql.FieldAccess:
		return c.fieldAccess(e)
	case *sql.ItemAccess:
		return c.itemAccess(e)
	case *sql.IsTruth:
		return c.isTruth(e)
	case *sql.WindowCall:
		return nil, sql.Errorf(sql.ErrInvalid, e.At, "%s can only be used as an item of GROUP BY", e.Kind)
	case *sql.WindowAux:
		return nil, sql.Errorf(sql.ErrInvalid, e.At, "%s_%s can only be used in a query grouped by %s", e.Kind, e.Prop, e.Kind)
	case *sql.OverCall:
		return nil, sql.Errorf(sql.ErrUnsupported, e.At, "%s OVER (...) is supported only as Top-N or deduplication: SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t) WHERE rn <= 3; other OVER windows are not supported yet", e.Func.Name)
	}
	return nil, sql.Errorf(sql.ErrUnsupported, e.Pos(), "this expression is not supported yet")
}

func literal(e *sql.Literal) (expr.Expr, error) {
	switch e.Kind {
	case sql.LitNull:
		return expr.NullLiteral(tNull), nil
	case sql.LitBool:
		return &expr.Literal{Type: tBool, Int: int64(b2i(strings.EqualFold(e.Text, "TRUE")))}, nil
	case sql.LitInt:
		v, err := strconv.ParseInt(e.Text, 10, 64)
		if err != nil {
			return nil, sql.Errorf(sql.ErrUnsupported, e.At, "integer %s is out of the BIGINT range", e.Text)
		}
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return &expr.Literal{Type: tInt, Int: v}, nil
		}
		return &expr.Literal{Type: tBigint, Int: v}, nil
	case sql.LitDecimal:
		return decimalLiteral(e)
	case sql.LitFloat:
		v, err := strconv.ParseFloat(e.Text, 64)
		if err != nil {
			return nil, sql.Errorf(sql.ErrInvalid, e.At, "cannot read number %s", e.Text)
		}
		return &expr.Literal{Type: tDouble, Float: v}, nil
	case sql.LitString:
		return &expr.Literal{Type: tString, Str: e.Text}, nil
	case sql.LitBinary:
		return bytesLiteral(e)
	}
	return nil, sql.Errorf(sql.ErrUnsupported, e.At, "this literal is not supported")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (c *Compiler) unary(e *sql.Unary) (expr.Expr, error) {
	if iv, ok, err := intervalfold.Fold(e); err != nil {
		return nil, err
	} else if ok {
		return intervalfold.Value(iv), nil
	}
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	dt := x.DataType()
	switch strings.ToUpper(e.Op) {
	case "NOT":
		if x, err = c.boolean(x, e.X.Pos(), "NOT"); err != nil {
			return nil, err
		}
		return c.fold(e.At, &expr.Not{X: x}, x)
	case "-", "+":
		if n := intervalfold.Negate(x); n != nil && e.Op == "-" {
			return c.fold(e.At, n, x)
		} else if n != nil {
			return x, nil
		}
		if !isNumeric(dt) && !isNull(dt) {
			return nil, sql.Errorf(sql.ErrInvalid, e.At, "unary %s expects a number, got %s", e.Op, typeName(dt))
		}
		if e.Op == "+" || isNull(dt) {
			return x, nil
		}
		return c.fold(e.At, &expr.Negate{X: x}, x)
	}
	return nil, sql.Errorf(sql.ErrUnsupported, e.At, "operator %s is not supported", e.Op)
}

// boolean checks that x is BOOLEAN (a NULL literal becomes a BOOLEAN NULL).
func (c *Compiler) boolean(x expr.Expr, pos sql.Pos, what string) (expr.Expr, error) {
	switch x.DataType().ID() {
	case arrow.BOOL:
		return x, nil
	case arrow.NULL:
		return expr.NullLiteral(tBool), nil
	}
	return nil, sql.Errorf(sql.ErrInvalid, pos, "%s expects a BOOLEAN, got %s", what, typeName(x.DataType()))
}

func (c *Compiler) binary(e *sql.Binary) (expr.Expr, error) {
	op := strings.ToUpper(e.Op)
	if u, err := intervalfold.Binary(e, op); err != nil || u.Value != nil {
		return u.Value, err
	} else if u.Time != nil {
		return c.timeArith(e, u.Time, u.Interval)
	}
	l, err := c.compile(e.L)
	if err != nil {
		return nil, err
	}
	r, err := c.compile(e.R)
	if err != nil {
		return nil, err
	}
	switch op {
	case "AND", "OR":
		if l, err = c.boolean(l, e.L.Pos(), op); err != nil {
			return nil, err
		}
		if r, err = c.boolean(r, e.R.Pos(), op); err != nil {
			return nil, err
		}
		if op == "AND" {
			return c.fold(e.At, &expr.And{L: l, R: r}, l, r)
		}
		return c.fold(e.At, &expr.Or{L: l, R: r}, l, r)
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return c.comparison(e.At, op, l, r, e.L.Pos(), e.R.Pos())
	case "||":
		return c.stringCall(e.At, "CONCAT", "||", []expr.Expr{l, r}, []sql.Pos{e.L.Pos(), e.R.Pos()})
	case "IS DISTINCT FROM", "IS NOT DISTINCT FROM":
		return c.distinctFrom(e, l, r)
	case "+", "-", "*", "/", "%":
		return c.arith(e.At, op[0], l, r, e.L.Pos(), e.R.Pos())
	}
	return nil, sql.Errorf(sql.ErrUnsupported, e.At, "operator %s is not supported", e.Op)
}

// arith types l op r: both numbers, in their common type. % (MOD) takes
// the divisor's type, as Calcite does.
func (c *Compiler) arith(at sql.Pos, op byte, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error) {
	if x, ok, err := intervalfold.Arith(at, op, l, r, c.opts.Location); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return c.fold(at, x, l, r)
	}
	lt, rt := l.DataType(), r.DataType()
	for i, t := range []arrow.DataType{lt, rt} {
		if !isNumeric(t) && !isNull(t) {
			pos := []sql.Pos{lp, rp}[i]
			if isTemporal(t) {
				return nil, sql.Errorf(sql.ErrInvalid, pos, "cannot apply %c to %s and %s; add or subtract an INTERVAL", op, typeName(lt), typeName(rt))
			}
			return nil, sql.Errorf(sql.ErrInvalid, pos, "%c expects numbers, got %s %c %s", op, typeName(lt), op, typeName(rt))
		}
	}
	if isNull(lt) && isNull(rt) {
		return expr.NullLiteral(tInt), nil
	}
	dt := commonNumeric(lt, rt)
	if isDecimal(dt) {
		return c.decimalArith(at, op, l, r, lp, rp)
	}
	var err error
	if l, err = c.to(l, dt, lp); err != nil {
		return nil, err
	}
	if r, err = c.to(r, dt, rp); err != nil {
		return nil, err
	}
	var x expr.Expr = &expr.Arith{Op: op, L: l, R: r, Type: dt}
	if op == '%' && isInteger(rt) && !arrow.TypeEqual(rt, dt) {
		x = &expr.Cast{X: x, To: rt}
	}
	return c.fold(at, x, l, r)
}

// timeArith is t ± INTERVAL (and INTERVAL + t): milliseconds for a
// TIMESTAMP, whole days for a DATE, wrapping around the day for a TIME.
func (c *Compiler) timeArith(e *sql.Binary, other sql.Expr, iv *sql.IntervalLiteral) (expr.Expr, error) {
	x, err := c.compile(other)
	if err != nil {
		return nil, err
	}
	dt := x.DataType()
	switch m := intervalfold.AddMonths(e, x, iv, c.opts.Location); {
	case m != nil:
		return c.fold(e.At, m, x)
	case intervalfold.IsInterval(dt): // an interval computed per row plus a constant
		return c.arith(e.At, e.Op[0], x, intervalfold.Value(iv), other.Pos(), iv.At)
	case intervalfold.ShiftTime(e, x, iv) != nil:
		return c.fold(e.At, intervalfold.ShiftTime(e, x, iv), x)
	case isTimestamp(dt):
		n, sumType := catalog.IntervalIn(dt, iv.Millis)
		if x, err = c.to(x, sumType, other.Pos()); err != nil {
			return nil, err
		}
		r, err := c.fold(e.At, &expr.Arith{Op: e.Op[0], L: x, R: &expr.Literal{Type: tBigint, Int: n}, Type: sumType}, x)
		if l, ok := r.(*expr.Literal); ok && !l.Null && !rowtime.InEventTimeRange(catalog.MillisOf(l.Int, sumType)) {
			return nil, sql.Errorf(sql.ErrInvalid, e.At, "%s is outside the range of TIMESTAMP, 0000-01-01 00:00:00.000 to 9999-12-31 23:59:59.999", sqlfmt.Expr(e))
		}
		return r, err
	case dt.ID() == arrow.DATE32:
		return c.fold(e.At, &expr.Arith{Op: e.Op[0], L: x, R: &expr.Literal{Type: arrow.PrimitiveTypes.Int32, Int: iv.Millis / msPerDay}, Type: dt}, x)
	case isNull(dt):
		return expr.NullLiteral(tTS), nil
	}
	return nil, sql.Errorf(sql.ErrInvalid, other.Pos(), "an INTERVAL can only be added to a TIMESTAMP, DATE or TIME, not %s", typeName(dt))
}

// comparison brings l and r to a common type. A string literal compared
// with a DATE or TIMESTAMP is read as one, as Flink does.
func (c *Compiler) comparison(at sql.Pos, op string, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error) {
	lt, rt := l.DataType(), r.DataType()
	if isTemporal(lt) && isString(rt) {
		if _, lit := r.(*expr.Literal); lit {
			rt = lt
		}
	} else if isString(lt) && isTemporal(rt) {
		if _, lit := l.(*expr.Literal); lit {
			lt = rt
		}
	}
	if format.IsNestedType(lt) || format.IsNestedType(rt) {
		return c.nestedComparison(at, op, l, r)
	}
	dt, ok := compareType(lt, rt)
	if !ok {
		hint := ""
		if isTimestamp(lt) && isTimestamp(rt) {
			hint = "; CAST one side"
		}
		return nil, sql.Errorf(sql.ErrInvalid, at, "cannot compare %s with %s%s", typeName(l.DataType()), typeName(r.DataType()), hint)
	}
	if isNull(dt) {
		return expr.NullLiteral(tBool), nil
	}
	var err error
	if l, err = c.to(l, dt, lp); err != nil {
		return nil, err
	}
	if r, err = c.to(r, dt, rp); err != nil {
		return nil, err
	}
	return c.fold(at, &expr.Compare{Op: op, L: l, R: r}, l, r)
}

func (c *Compiler) cast(e *sql.Cast) (expr.Expr, error) {
	if v, err := intervalfold.Cast(e); v != nil || err != nil {
		return v, err
	}
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	tn := e.Type
	if l, ok := e.X.(*sql.Literal); ok && e.Literal {
		tn.Precision = sql.LiteralPrecision(tn.Name, l.Text)
	}
	dt, err := catalog.ArrowType(tn)
	if err != nil {
		return nil, err
	}
	from := x.DataType()
	if format.IsNestedType(from) && format.IsNestedType(dt) && !arrow.TypeEqual(from, dt) {
		return c.nestedCast(x, dt, e.Try, e.At, catalog.TypeString(e.Type))
	}
	if ok, hint := castable(from, dt); !ok {
		return nil, sql.Errorf(sql.ErrInvalid, e.At, "cannot CAST %s to %s%s", typeName(from), catalog.TypeString(e.Type), hint)
	}
	src := x
	if e.Try && !isNull(from) && !arrow.TypeEqual(from, dt) {
		x, err = c.fold(e.At, &expr.Cast{X: x, To: dt, Loc: c.opts.Location, Try: true}, x)
	} else {
		x, err = c.to(x, dt, e.At)
	}
	if err != nil {
		return nil, err
	}
	if isString(dt) {
		x = c.stringPrecision(src, x)
	}
	if x, err = c.fitPrecision(x, tn); err != nil {
		return nil, err
	}
	return c.fitLength(x, e)
}

// castable reports whether CAST turns a scalar of type from (or a nested
// value, into STRING) into type dt; hint is said when it does not.
func castable(from, dt arrow.DataType) (ok bool, hint string) {
	switch {
	case isBinary(from) || isBinary(dt):
		ok = isNull(from) || (isString(from) || isBinary(from)) && (isString(dt) || isBinary(dt))
	case isNull(from), arrow.TypeEqual(from, dt), isString(dt), isString(from):
		ok = true
	case (isNumeric(from) || from.ID() == arrow.BOOL) && (isNumeric(dt) || dt.ID() == arrow.BOOL):
		ok = !(from.ID() == arrow.BOOL && isDecimal(dt))
	case isTemporal(from) && isTemporal(dt):
		ok = !(from.ID() == arrow.DATE32 && dt.ID() == arrow.DATE32)
	case catalog.CastableTemporal(from, dt):
		ok = true
	}
	if !ok && isInteger(from) && isTimestamp(dt) {
		hint = "; use TO_TIMESTAMP_LTZ(n, 0) or TO_TIMESTAMP_LTZ(n, 3)"
	}
	return ok, hint
}

// nestedCast is CAST(x AS dt) between nested types of one kind, each
// element converted as CAST (TRY_CAST with try) converts a scalar.
func (c *Compiler) nestedCast(x expr.Expr, dt arrow.DataType, try bool, at sql.Pos, name string) (expr.Expr, error) {
	out, err := nestedcast.Build(x, dt, func(col expr.Expr, to arrow.DataType) (expr.Expr, error) {
		if ok, _ := castable(col.DataType(), to); !ok {
			return nil, fmt.Errorf("%s does not convert to %s", typeName(col.DataType()), typeName(to))
		}
		if try && !isNull(col.DataType()) {
			return &expr.Cast{X: col, To: to, Loc: c.opts.Location, Try: true}, nil
		}
		return c.to(col, to, at)
	})
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, at, "cannot CAST %s to %s: %v", typeName(x.DataType()), name, err)
	}
	return c.fold(at, out, x)
}

func (c *Compiler) in(e *sql.In) (expr.Expr, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	items := make([]expr.Expr, len(e.List))
	allConst := true
	dt := x.DataType()
	for i, it := range e.List {
		if items[i], err = c.compile(it); err != nil {
			return nil, err
		}
		_, lit := items[i].(*expr.Literal)
		allConst = allConst && lit
		it := items[i].DataType()
		if isTemporal(dt) && isString(it) && lit {
			continue
		}
		if format.IsNestedType(dt) || format.IsNestedType(it) { // compared one by one (nestedComparison)
			allConst = false
			continue
		}
		var ok bool
		if dt, ok = commonType(dt, it); !ok {
			return nil, sql.Errorf(sql.ErrInvalid, e.List[i].Pos(), "IN list value of type %s does not match %s", typeName(it), typeName(x.DataType()))
		}
	}
	var out expr.Expr
	if allConst && !isNull(dt) {
		if x, err = c.to(x, dt, e.X.Pos()); err != nil {
			return nil, err
		}
		vals := make([]*expr.Literal, len(items))
		for i, it := range items {
			v, err := c.to(it, dt, e.List[i].Pos())
			if err != nil {
				return nil, err
			}
			vals[i] = v.(*expr.Literal)
		}
		if out, err = c.fold(e.At, expr.NewInList(x, vals), x); err != nil {
			return nil, err
		}
	} else {
		// x = a OR x = b ...: the same three-valued result, x evaluated once
		out, err = c.share(x, func(x expr.Expr) (expr.Expr, error) {
			eqs := make([]expr.Expr, len(items))
			for i, it := range items {
				var err error
				if eqs[i], err = c.comparison(e.At, "=", x, it, e.X.Pos(), e.List[i].Pos()); err != nil {
					return nil, err
				}
			}
			return c.anyOf(e.At, eqs)
		})
		if err != nil {
			return nil, err
		}
	}
	if e.Not {
		return c.fold(e.At, &expr.Not{X: out}, out)
	}
	return out, nil
}

// anyOf ORs es as a balanced tree, so a long IN list nests log2(n) deep,
// not n: evaluation and printing recurse through it. OR is associative in
// three-valued logic, so the shape does not change the result.
func (c *Compiler) anyOf(at sql.Pos, es []expr.Expr) (expr.Expr, error) {
	if len(es) == 1 {
		return es[0], nil
	}
	l, err := c.anyOf(at, es[:len(es)/2])
	if err != nil {
		return nil, err
	}
	r, err := c.anyOf(at, es[len(es)/2:])
	if err != nil {
		return nil, err
	}
	return c.fold(at, &expr.Or{L: l, R: r}, l, r)
}

func (c *Compiler) between(e *sql.Between) (expr.Expr, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	lo, err := c.compile(e.Lo)
	if err != nil {
		return nil, err
	}
	hi, err := c.compile(e.Hi)
	if err != nil {
		return nil, err
	}
	if e.Symmetric {
		return c.betweenSymmetric(e, x, lo, hi)
	}
	lop, hop := ">=", "<="
	if e.Not {
		lop, hop = "<", ">"
	}
	// x is read twice: share evaluates it once
	return c.share(x, func(x expr.Expr) (expr.Expr, error) {
		l, err := c.comparison(e.At, lop, x, lo, e.X.Pos(), e.Lo.Pos())
		if err != nil {
			return nil, err
		}
		r, err := c.comparison(e.At, hop, x, hi, e.X.Pos(), e.Hi.Pos())
		if err != nil {
			return nil, err
		}
		if e.Not {
			return c.fold(e.At, &expr.Or{L: l, R: r}, l, r)
		}
		return c.fold(e.At, &expr.And{L: l, R: r}, l, r)
	})
}

// constString compiles e and requires a constant STRING (nil for NULL).
func (c *Compiler) constString(e sql.Expr, what string) (*string, error) {
	x, err := c.compile(e)
	if err != nil {
		return nil, err
	}
	l, ok := x.(*expr.Literal)
	if !ok || !(isString(l.Type) || isNull(l.Type)) {
		return nil, sql.Errorf(sql.ErrUnsupported, e.Pos(), "%s must be a constant string", what)
	}
	if l.Null {
		return nil, nil
	}
	return &l.Str, nil
}

// patternOf reads the constant pattern of LIKE or SIMILAR TO (nil for
// NULL) and its ESCAPE character (-1 when none is given).
func (c *Compiler) patternOf(e *sql.Like, what string) (pattern *string, escape rune, err error) {
	if pattern, err = c.constString(e.Pattern, what); err != nil {
		return nil, 0, err
	}
	escape = -1
	if e.Escape != nil {
		esc, err := c.constString(e.Escape, "the ESCAPE character")
		if err != nil {
			return nil, 0, err
		}
		if esc == nil || len([]rune(*esc)) != 1 {
			return nil, 0, sql.Errorf(sql.ErrInvalid, e.Escape.Pos(), "the ESCAPE character must be one character")
		}
		escape = []rune(*esc)[0]
	}
	return pattern, escape, nil
}

func (c *Compiler) like(e *sql.Like) (expr.Expr, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	if e.Similar {
		return c.similar(e, x)
	}
	if x, err = c.stringArg(x, e.X.Pos(), "LIKE"); err != nil {
		return nil, err
	}
	pattern, escape, err := c.patternOf(e, "the LIKE pattern")
	if err != nil {
		return nil, err
	}
	if pattern == nil {
		return expr.NullLiteral(tBool), nil
	}
	lk, err := expr.NewLike(x, *pattern, escape)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, e.Pattern.Pos(), "%v", err)
	}
	var out expr.Expr = lk
	if out, err = c.fold(e.At, out, x); err != nil {
		return nil, err
	}
	if e.Not {
		return c.fold(e.At, &expr.Not{X: out}, out)
	}
	return out, nil
}

// stringArg checks that x is a STRING (a NULL literal becomes one).
func (c *Compiler) stringArg(x expr.Expr, pos sql.Pos, fn string) (expr.Expr, error) {
	switch x.DataType().ID() {
	case arrow.STRING:
		return x, nil
	case arrow.NULL:
		return expr.NullLiteral(tString), nil
	}
	return nil, sql.Errorf(sql.ErrInvalid, pos, "%s expects a STRING, got %s", fn, typeName(x.DataType()))
}

func (c *Compiler) caseExpr(e *sql.Case) (expr.Expr, error) {
	var operand expr.Expr
	var err error
	if e.Operand != nil {
		if operand, err = c.compile(e.Operand); err != nil {
			return nil, err
		}
	}
	var whens, thens []expr.Expr
	var thenPos []sql.Pos
	var more [][]expr.Expr // CASE x WHEN a, b: b
	for _, w := range e.Whens {
		cond, err := c.compile(w.Cond)
		if err != nil {
			return nil, err
		}
		var values []expr.Expr
		for _, m := range w.More {
			v, err := c.compile(m)
			if err != nil {
				return nil, err
			}
			values = append(values, v)
		}
		more = append(more, values)
		if operand == nil {
			if cond, err = c.boolean(cond, w.Cond.Pos(), "WHEN"); err != nil {
				return nil, err
			}
		}
		res, err := c.compile(w.Result)
		if err != nil {
			return nil, err
		}
		whens, thens, thenPos = append(whens, cond), append(thens, res), append(thenPos, w.Result.Pos())
	}
	var els expr.Expr
	if e.Else != nil {
		if els, err = c.compile(e.Else); err != nil {
			return nil, err
		}
		thenPos = append(thenPos, e.Else.Pos())
	}
	if operand == nil {
		return c.choose(e.At, "CASE", whens, thens, els, thenPos)
	}
	// CASE x WHEN a ...: x = a for each WHEN, x evaluated once
	return c.share(operand, func(x expr.Expr) (expr.Expr, error) {
		conds := make([]expr.Expr, len(whens))
		for i, w := range e.Whens {
			var err error
			if conds[i], err = c.comparison(w.Cond.Pos(), "=", x, whens[i], e.Operand.Pos(), w.Cond.Pos()); err != nil {
				return nil, err
			}
			for j, v := range more[i] {
				eq, err := c.comparison(w.More[j].Pos(), "=", x, v, e.Operand.Pos(), w.More[j].Pos())
				if err != nil {
					return nil, err
				}
				if conds[i], err = c.fold(w.More[j].Pos(), &expr.Or{L: conds[i], R: eq}, conds[i], eq); err != nil {
					return nil, err
				}
			}
		}
		return c.choose(e.At, "CASE", conds, thens, els, thenPos)
	})
}

// choose builds a Case whose results are brought to their common type.
// pos holds the positions of thens, then of els.
func (c *Compiler) choose(at sql.Pos, what string, whens, thens []expr.Expr, els expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	results := append([]expr.Expr(nil), thens...)
	if els != nil {
		results = append(results, els)
	}
	dt, err := c.toCommon(at, what, results, pos)
	if err != nil {
		return nil, err
	}
	cs := &expr.Case{Whens: whens, Thens: results[:len(thens)], Type: dt}
	if els != nil {
		cs.Else = results[len(thens)]
	}
	// a CASE whose conditions are all constants is decided now
	consts := append(append([]expr.Expr(nil), whens...), results...)
	return c.fold(at, cs, consts...)
}

// toCommon brings results (in place) to their common type and returns it.
// pos holds the results' positions.
func (c *Compiler) toCommon(at sql.Pos, what string, results []expr.Expr, pos []sql.Pos) (arrow.DataType, error) {
	dt := arrow.DataType(tNull)
	for i, r := range results {
		t, ok := commonType(dt, r.DataType())
		if !ok || (format.IsMultiset(dt) != format.IsMultiset(r.DataType()) && !isNull(dt) && !isNull(r.DataType())) {
			return nil, sql.Errorf(sql.ErrInvalid, pos[i], "%s results have no common type: %s and %s", what, typeName(dt), typeName(r.DataType()))
		}
		dt = t
	}
	if isNull(dt) {
		return nil, sql.Errorf(sql.ErrInvalid, at, "%s needs a result that is not NULL to have a type", what)
	}
	for i, r := range results {
		x, err := c.to(r, dt, pos[i])
		if err != nil {
			return nil, err
		}
		results[i] = x
	}
	return dt, nil
}

// coalesce is COALESCE and IFNULL: every argument brought to the common
// type, each evaluated once (expr.Coalesce).
func (c *Compiler) coalesce(at sql.Pos, what string, args []expr.Expr, pos []sql.Pos) (expr.Expr, error) {
	dt, err := c.toCommon(at, what, args, pos)
	if err != nil {
		return nil, err
	}
	return c.fold(at, &expr.Coalesce{Args: args, Type: dt}, args...)
}

func (c *Compiler) trim(e *sql.Trim) (expr.Expr, error) {
	x, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	if x, err = c.stringArg(x, e.X.Pos(), "TRIM"); err != nil {
		return nil, err
	}
	chars := " "
	if e.Chars != nil {
		s, err := c.constString(e.Chars, "the characters TRIM removes")
		if err != nil {
			return nil, err
		}
		if s == nil {
			return expr.NullLiteral(tString), nil
		}
		chars = *s
	}
	mode := strings.ToUpper(e.Mode)
	t := &expr.Trim{X: x, Chars: chars, Leading: mode != "TRAILING", Trailing: mode != "LEADING"}
	return c.fold(e.At, t, x)
}

// extract is EXTRACT(unit FROM x) and YEAR(x), HOUR(x), ...
func (c *Compiler) extract(at sql.Pos, unit string, x expr.Expr, xp sql.Pos) (expr.Expr, error) {
	unit = strings.ToUpper(unit)
	if !slices.Contains(expr.ExtractUnits, unit) {
		return nil, sql.Errorf(sql.ErrUnsupported, at, "EXTRACT of %s is not supported%s", unit, sql.DidYouMean(unit, expr.ExtractUnits))
	}
	dt := x.DataType()
	if isNull(dt) {
		return expr.NullLiteral(tBigint), nil
	}
	if !isTemporal(dt) {
		return nil, sql.Errorf(sql.ErrInvalid, xp, "EXTRACT expects a DATE or TIMESTAMP, got %s", typeName(dt))
	}
	var err error
	if !expr.IsFractionUnit(unit) { // those read the value's own precision
		if x, err = c.millisTimestamp(x, xp); err != nil {
			return nil, err
		}
	}
	return c.fold(at, &expr.Extract{Unit: unit, X: x, Loc: c.opts.Location}, x)
}
