package windowop

import (
	"cmp"
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The orderings of MIN and MAX. Each is total, so the result does not
// depend on the order rows arrive or panes merge.

// compareFloat orders floats as Java's Double.compare: -0.0 below 0.0 and
// NaN above +Inf. (Flink's generated MIN/MAX use `<` and `>`, under which
// the result depends on whether a NaN came first; a total order does not.)
// So MAX is NaN as soon as any value is, MIN is NaN only when every value
// is, and MIN and MAX keep NaN as canonicalNaN: NaNs differ in their bits
// (0/0 is negative on x86), and the order holds them equal, so keeping the
// first one's bits would make the result depend on arrival.
func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmp.Compare(b2i(math.Signbit(b)), b2i(math.Signbit(a))) // a == b: -0 < +0
}

// canonicalNaN is the one NaN MIN and MAX return: Java's Double.NaN, which
// narrows to Float.NaN for FLOAT.
var canonicalNaN = math.Float64frombits(0x7ff8_0000_0000_0000)

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareString orders strings by their UTF-8 bytes, unsigned, as Flink's
// BinaryStringData.compareTo does (code point order, which differs from
// java.lang.String's UTF-16 order only for characters above U+FFFF).
// The conversions in comparisons do not allocate.
func compareString(a string, b []byte) int {
	switch {
	case a < string(b):
		return -1
	case a > string(b):
		return 1
	}
	return 0
}

func compareDecimal(a, b decimal128.Num) int { return a.Cmp(b) }
