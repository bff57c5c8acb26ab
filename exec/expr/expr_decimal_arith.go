package expr

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DecimalArith is L op R (op one of + - * / %) on two DECIMAL columns of
// any precision and scale, into Type (the planner's Flink result type).
// As Flink's DecimalDataUtils: the exact result rounded half up to Type's
// scale; a quotient first to 38 significant digits (BigDecimal's
// MathContext(38, HALF_UP)), then to the scale; a result with more digits
// than Type's precision is NULL. Division or remainder by zero fails, as
// BigDecimal's does.
type DecimalArith struct {
	Op   byte
	L, R Expr
	Type *arrow.Decimal128Type
}

func (e *DecimalArith) DataType() arrow.DataType { return e.Type }
func (e *DecimalArith) String() string           { return fmt.Sprintf("(%s %c %s)", e.L, e.Op, e.R) }
func (e *DecimalArith) children() []Expr         { return []Expr{e.L, e.R} }
func (e *DecimalArith) canFail() bool            { return e.Op == '/' || e.Op == '%' }

func (e *DecimalArith) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	in, err := evalAll(rec, mem, e.L, e.R)
	if err != nil {
		return nil, err
	}
	defer ReleaseAll(in)
	l, ok1 := in[0].(*array.Decimal128)
	r, ok2 := in[1].(*array.Decimal128)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("decimal arithmetic on %s and %s", in[0].DataType(), in[1].DataType())
	}
	lt, rt := l.DataType().(*arrow.Decimal128Type), r.DataType().(*arrow.Decimal128Type)
	k := decimalOp{op: e.Op, s1: lt.Scale, s2: rt.Scale, p: e.Type.Precision, s: e.Type.Scale}
	// 128-bit fast paths: operands already at the result's scale whose
	// sum or product cannot pass 38 digits
	switch {
	case (e.Op == '+' || e.Op == '-') && k.s1 == k.s && k.s2 == k.s && lt.Precision < 38 && rt.Precision < 38:
		k.fast = true
	case e.Op == '*' && k.s1+k.s2 == k.s && lt.Precision+rt.Precision <= 38:
		k.fast = true
	}
	n := l.Len()
	b := array.NewDecimal128Builder(mem, e.Type)
	defer b.Release()
	b.Reserve(n)
	lv, rv := l.Values(), r.Values()
	for i := range n {
		if l.IsNull(i) || r.IsNull(i) {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		v, ok, err := k.apply(lv[i], rv[i])
		if err != nil {
			return nil, fmt.Errorf("%w: %v in %s", ErrEval, err, e)
		}
		if !ok {
			b.UnsafeAppendBoolToBitmap(false)
			continue
		}
		b.UnsafeAppend(v)
	}
	return b.NewArray(), nil
}

// decimalOp computes one operation between operands of scales s1 and s2
// into DECIMAL(p, s).
type decimalOp struct {
	op     byte
	s1, s2 int32
	p, s   int32
	fast   bool
	w      decimalWide
}

var errDivisionByZero = fmt.Errorf("division by zero")

func (k *decimalOp) apply(l, r decimal128.Num) (decimal128.Num, bool, error) {
	if k.fast {
		var v decimal128.Num
		switch k.op {
		case '+':
			v = l.Add(r)
		case '-':
			v = l.Sub(r)
		default:
			v = l.Mul(r)
		}
		return v, v.FitsInPrecision(k.p), nil
	}
	if (k.op == '/' || k.op == '%') && r.Sign() == 0 {
		return decimal128.Num{}, false, errDivisionByZero
	}
	if k.op == '/' {
		if v, ok, done := k.divide64(l, r); done {
			return v, ok, nil
		}
	}
	w := &k.w
	a, b := w.set(&w.a, l), w.set(&w.b, r)
	switch k.op {
	case '+', '-', '%':
		sc := max(k.s1, k.s2)
		w.scaleUp(a, sc-k.s1)
		w.scaleUp(b, sc-k.s2)
		switch k.op {
		case '+':
			a.Add(a, b)
		case '-':
			a.Sub(a, b)
		default:
			w.quo(&w.t, a, b) // truncated: the remainder has the dividend's sign, as BigDecimal.remainder
			a.Set(&w.r)
		}
		w.roundDown(a, sc-k.s)
	case '*':
		w.mul(a, a, b)
		w.roundDown(a, k.s1+k.s2-k.s)
	default: // '/'
		k.divide(a, b)
	}
	v, ok := num(a, k.p)
	return v, ok, nil
}

// divide leaves a/b in a at scale k.s. The quotient is computed truncated
// to 40 digits past the result's scale, which holds every digit the two
// roundings look at: to 38 significant digits, then to the scale.
func (k *decimalOp) divide(a, b *big.Int) {
	w := &k.w
	t := k.s + 40
	w.scaleUp(a, t-k.s1+k.s2) // ≥ 0: s ≥ 6 and s1 ≤ 38
	w.quo(a, a, b)
	if d := digits(a); d > 38 {
		w.roundDown(a, d-38)
		t -= d - 38
	}
	if t >= k.s {
		w.roundDown(a, t-k.s)
	} else {
		w.scaleUp(a, k.s-t)
	}
}

// divide64 is l/r in 64-bit integers when the dividend scaled to one digit
// past the result's scale and the divisor both fit: the quotient then has
// at most 20 digits, so Flink's rounding to 38 significant digits falls 18
// or more digits further right and can change the answer only by carrying
// into a last digit of 4, when the remainder is within 10^-18 of the
// divisor; that rare row (and any that does not fit) is left to the wide
// path (done false).
func (k *decimalOp) divide64(l, r decimal128.Num) (v decimal128.Num, ok, done bool) {
	shift := k.s + 1 - k.s1 + k.s2 // ≥ 1: s > s1
	if shift > 19 {
		return v, false, false
	}
	neg := (l.Sign() < 0) != (r.Sign() < 0)
	la, ra := l.Abs(), r.Abs()
	if la.HighBits() != 0 || ra.HighBits() != 0 {
		return v, false, false
	}
	hi, num := bits.Mul64(la.LowBits(), pow10u64[shift])
	if hi != 0 {
		return v, false, false
	}
	d := ra.LowBits()
	q, rem := num/d, num%d
	last := q % 10
	if last == 4 && rem != 0 && d-rem <= d/1e18+1 {
		return v, false, false
	}
	q /= 10
	if last >= 5 {
		q++
	}
	v = decimal128.FromU64(q)
	if neg {
		v = v.Negate()
	}
	return v, v.FitsInPrecision(k.p), true
}

// pow10u64 holds 10^0 … 10^19.
var pow10u64 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()
