package exprplan

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// decimalArithType is the type of l op r for two exact numbers, at least
// one a DECIMAL (catalog.DecimalArithType's rules).
func decimalArithType(op byte, l, r arrow.DataType) *arrow.Decimal128Type {
	p1, s1 := exactDigits(l)
	p2, s2 := exactDigits(r)
	return catalog.DecimalArithType(op, p1, s1, p2, s2)
}

// decimalArith compiles l op r where one side is a DECIMAL and the other
// a DECIMAL or an integer (brought to DECIMAL(3|5|10|19, 0), exactly). A
// NULL literal takes the other side's type.
func (c *Compiler) decimalArith(at sql.Pos, op byte, l, r expr.Expr, lp, rp sql.Pos) (expr.Expr, error) {
	lt, rt := l.DataType(), r.DataType()
	if isNull(lt) {
		lt = rt
	}
	if isNull(rt) {
		rt = lt
	}
	dt := decimalArithType(op, lt, rt)
	var err error
	if l, err = c.to(l, asDecimal(lt), lp); err != nil {
		return nil, err
	}
	if r, err = c.to(r, asDecimal(rt), rp); err != nil {
		return nil, err
	}
	return c.fold(at, &expr.DecimalArith{Op: op, L: l, R: r, Type: dt}, l, r)
}

// asDecimal is the DECIMAL an exact number type converts to exactly.
func asDecimal(dt arrow.DataType) arrow.DataType {
	p, s := exactDigits(dt)
	return &arrow.Decimal128Type{Precision: p, Scale: s}
}

// decimalLiteral types a number with a point as Calcite does: DECIMAL
// with as many digits as written and the digits after the point as the
// scale, so 0.1 is DECIMAL(2, 1) and 1.50 DECIMAL(3, 2); 5. is an integer.
func decimalLiteral(e *sql.Literal) (expr.Expr, error) {
	text := e.Text
	dot := strings.IndexByte(text, '.')
	p := int32(len(text))
	s := int32(0)
	if dot >= 0 {
		p--
		s = int32(len(text) - dot - 1)
	}
	if s == 0 {
		return literal(&sql.Literal{At: e.At, Kind: sql.LitInt, Text: strings.TrimSuffix(text, ".")})
	}
	if p > catalog.DecimalMaxPrecision {
		return nil, sql.Errorf(sql.ErrUnsupported, e.At, "number %s has more than 38 digits, the most a DECIMAL holds; write it with an exponent (%se0) for a DOUBLE", text, text)
	}
	var scratch []byte
	v, _, msg := format.ParseDecimalText(text, p, s, &scratch)
	if msg != "" {
		return nil, sql.Errorf(sql.ErrInvalid, e.At, "cannot read number %s: %s", text, msg)
	}
	return &expr.Literal{Type: &arrow.Decimal128Type{Precision: p, Scale: s}, Dec: v}, nil
}

// rescaleLiteral converts a DECIMAL or integer constant to the DECIMAL dt
// as CAST does (half up; NULL when it does not fit) without evaluating a
// one-row column, so a long IN list of decimals plans in linear time.
func rescaleLiteral(l *expr.Literal, dt arrow.DataType) (*expr.Literal, bool) {
	to, ok := dt.(*arrow.Decimal128Type)
	if !ok || l.Null {
		return nil, false
	}
	var v decimal128.Num
	switch from := l.Type.(type) {
	case *arrow.Decimal128Type:
		v, ok = format.RescaleDecimal(l.Dec, from.Scale, to.Scale)
	default:
		if !isInteger(from) {
			return nil, false
		}
		v, ok = format.DecimalFromInt(l.Int, to.Scale)
	}
	if !ok || !v.FitsInPrecision(to.Precision) {
		return expr.NullLiteral(dt), true
	}
	return &expr.Literal{Type: dt, Dec: v}, true
}
