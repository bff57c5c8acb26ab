package format

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/exec/format/scalartext"
)

// Decimal scale changes that never panic. Arrow's Rescale and
// IncreaseScaleBy go through big.Int and panic when the result passes 128
// bits, and Mul wraps silently; here a value that cannot be held reports
// ok = false, which CAST turns into NULL (Flink's overflow result).

// decimalMaxDigits is the largest DECIMAL precision.
const decimalMaxDigits = 38

// scaleUpDecimal multiplies v by 10^k (k ≥ 0); ok is false when the
// result has more than 38 digits.
func scaleUpDecimal(v decimal128.Num, k int32) (decimal128.Num, bool) {
	if k == 0 {
		return v, true
	}
	if v.Sign() == 0 {
		return v, true
	}
	// |v| < 10^(38-k) is exactly "|v|·10^k has at most 38 digits", and
	// then the product fits 128 bits.
	if k >= decimalMaxDigits || !v.FitsInPrecision(decimalMaxDigits-k) {
		return decimal128.Num{}, false
	}
	return v.Mul(decimal128.GetScaleMultiplier(int(k))), true
}

// RescaleDecimal changes v from scale `from` to scale `to`, rounding half
// away from zero as Java's BigDecimal.setScale(HALF_UP) does; ok is false
// when the result has more than 38 digits. Whether it fits a narrower
// precision is the caller's check.
func RescaleDecimal(v decimal128.Num, from, to int32) (decimal128.Num, bool) {
	switch {
	case to > from:
		return scaleUpDecimal(v, to-from)
	case to < from:
		if from-to > decimalMaxDigits {
			return decimal128.Num{}, true // every digit is dropped: |v| < 10^38 rounds to 0
		}
		return v.ReduceScaleBy(from-to, true), true
	}
	return v, true
}

// DecimalFromInt is n as a DECIMAL of the given scale.
func DecimalFromInt(n int64, scale int32) (decimal128.Num, bool) {
	return scaleUpDecimal(decimal128.FromI64(n), scale)
}

// FloatToDecimal is Flink's BigDecimal.valueOf(v).setScale(scale, HALF_UP):
// the shortest decimal text of v, rounded half away from zero, so 1.25
// becomes 1.3 at scale 1. NaN, infinities and values past 38 digits give
// ok = false.
func FloatToDecimal(v float64, bits int, scale int32) (decimal128.Num, bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return decimal128.Num{}, false
	}
	text := strconv.FormatFloat(v, 'f', -1, bits)
	frac := int32(0)
	if dot := strings.IndexByte(text, '.'); dot >= 0 {
		frac = int32(len(text) - dot - 1)
	}
	if frac > decimalMaxDigits || len(text) > 40 {
		n, err := decimal128.FromFloat64(v, decimalMaxDigits, scale)
		return n, err == nil
	}
	n, err := decimal128.FromString(text, decimalMaxDigits, frac)
	if err != nil {
		return n, false
	}
	return RescaleDecimal(n, frac, scale)
}

// ParseDecimalText reads decimal text exactly as the CSV and JSON decoders
// do ([+-]digits[.digits][e[+-]digits], rounded half up to scale). msg
// says why text is refused; overflow tells a number too large for prec
// from text that is no number. Arrow's FromString is not used: it rounds
// through a binary float and panics on huge exponents.
func ParseDecimalText(text string, prec, scale int32, scratch *[]byte) (n decimal128.Num, overflow bool, msg string) {
	const invalid = "invalid decimal" // scalartext.ParseDecimal's message for text that is no number
	if text == "" {
		return decimal128.Num{}, false, invalid
	}
	n, msg = scalartext.ParseDecimal([]byte(text), prec, scale, scratch)
	return n, msg != "" && msg != invalid, msg
}
