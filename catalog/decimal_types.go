package catalog

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Flink's result types of DECIMAL arithmetic (LogicalTypeMerging, after
// SQL Server's table): with p1, s1 and p2, s2 the operands' precision and
// scale (an integer operand counts as DECIMAL(3|5|10|19, 0)),
//
//	+ −   p = max(p1−s1, p2−s2) + s + 1      s = max(s1, s2)
//	×     p = p1 + p2 + 1                    s = s1 + s2
//	÷     p = p1 − s1 + s2 + s               s = max(6, s1 + p2 + 1)
//	%     p = min(p1−s1, p2−s2) + s          s = max(s1, s2)
//
// and a precision past 38 is cut to 38 by decimalFit.

// DecimalMaxPrecision is the most digits a DECIMAL holds.
const DecimalMaxPrecision = 38

// decimalMinAdjustedScale is the scale an overflowing result keeps at
// least (unless its own scale is smaller): Flink's MINIMUM_ADJUSTED_SCALE.
const decimalMinAdjustedScale = 6

// DecimalArithType is the type of a op b for a DECIMAL(p1, s1) and a
// DECIMAL(p2, s2).
func DecimalArithType(op byte, p1, s1, p2, s2 int32) *arrow.Decimal128Type {
	var p, s int32
	switch op {
	case '+', '-':
		s = max(s1, s2)
		p = max(p1-s1, p2-s2) + s + 1
	case '*':
		s = s1 + s2
		p = p1 + p2 + 1
	case '/':
		s = max(decimalMinAdjustedScale, s1+p2+1)
		p = p1 - s1 + s2 + s
	default: // '%'
		s = max(s1, s2)
		p = min(p1-s1, p2-s2) + s
	}
	return decimalFit(p, s)
}

// decimalFit is Flink's adjustPrecisionScale: a precision past 38 becomes
// 38, and the scale gives way so the integer digits survive, down to 6
// fractional digits (or the scale itself, when smaller).
func decimalFit(p, s int32) *arrow.Decimal128Type {
	if p <= DecimalMaxPrecision {
		return &arrow.Decimal128Type{Precision: max(p, 1), Scale: s}
	}
	intDigits := p - s
	return &arrow.Decimal128Type{Precision: DecimalMaxPrecision, Scale: max(DecimalMaxPrecision-intDigits, min(s, decimalMinAdjustedScale))}
}

// DecimalRoundType is the type of ROUND(x, digits) for a DECIMAL x,
// Flink's findRoundDecimalType: digits at or past the scale keep the type;
// negative digits leave no fraction; otherwise one more integer digit, for
// the carry (ROUND(9.99, 1) = 10.0).
func DecimalRoundType(dt *arrow.Decimal128Type, digits int) *arrow.Decimal128Type {
	p, s := dt.Precision, dt.Scale
	switch {
	case int64(digits) >= int64(s):
		return dt
	case digits < 0:
		return &arrow.Decimal128Type{Precision: min(DecimalMaxPrecision, 1+p-s), Scale: 0}
	}
	return &arrow.Decimal128Type{Precision: 1 + p - s + int32(digits), Scale: int32(digits)}
}
