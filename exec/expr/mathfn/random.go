package mathfn

import (
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// JavaRandom is java.util.Random's linear congruential generator, so
// that a seeded RAND or RAND_INTEGER gives the numbers Flink's does.
type JavaRandom struct{ seed uint64 }

const (
	javaMultiplier = 0x5DEECE66D
	javaMask       = 1<<48 - 1
)

// NewJavaRandom is new java.util.Random(seed).
func NewJavaRandom(seed int64) *JavaRandom {
	return &JavaRandom{seed: (uint64(seed) ^ javaMultiplier) & javaMask}
}

func (r *JavaRandom) next(bits uint) int32 {
	r.seed = (r.seed*javaMultiplier + 0xB) & javaMask
	return int32(int64(r.seed) >> (48 - bits))
}

// NextDouble is Random.nextDouble: [0, 1).
func (r *JavaRandom) NextDouble() float64 {
	return float64(int64(r.next(26))<<27+int64(r.next(27))) * (1.0 / (1 << 53))
}

// NextInt is Random.nextInt(bound), bound > 0: [0, bound).
func (r *JavaRandom) NextInt(bound int32) int32 {
	if bound&(-bound) == bound { // a power of 2
		return int32((int64(bound) * int64(r.next(31))) >> 31)
	}
	for {
		bits := r.next(31)
		val := bits % bound
		if bits-val+(bound-1) >= 0 { // no int overflow: not in the last partial range
			return val
		}
	}
}

// Rand is RAND([seed]) (DOUBLE in [0, 1)) or, with Bound, RAND_INTEGER([seed,]
// bound) (INT in [0, bound)). With a constant seed the rows draw, in
// order, from one java.util.Random(seed) for the whole query, as in Flink;
// without one the seed is the query's start.
type Rand struct {
	Seed  *int64    // nil: no seed
	Bound expr.Expr // INT bound of RAND_INTEGER (BIGINT), nil for RAND
	mu    sync.Mutex
	r     *JavaRandom
}

func (e *Rand) DataType() arrow.DataType {
	if e.Bound != nil {
		return arrow.PrimitiveTypes.Int32
	}
	return arrow.PrimitiveTypes.Float64
}

func (e *Rand) Children() []expr.Expr {
	if e.Bound != nil {
		return []expr.Expr{e.Bound}
	}
	return nil
}

func (e *Rand) String() string {
	args := ""
	if e.Seed != nil {
		args = fmt.Sprint(*e.Seed)
	}
	if e.Bound != nil {
		if args != "" {
			args += ", "
		}
		return "RAND_INTEGER(" + args + e.Bound.String() + ")"
	}
	return "RAND(" + args + ")"
}

// CanFail: a bound that is not positive stops the query, as Java's
// IllegalArgumentException does in Flink.
func (e *Rand) CanFail() bool { return e.Bound != nil }

var errBound = errors.New("RAND_INTEGER: the bound must be positive")

func (e *Rand) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	e.mu.Lock() // the rows draw in order from one generator
	defer e.mu.Unlock()
	if e.r == nil {
		seed := time.Now().UnixNano()
		if e.Seed != nil {
			seed = *e.Seed
		}
		e.r = NewJavaRandom(seed)
	}
	if e.Bound == nil {
		vb, out := expr.NewValues[float64](mem, n)
		for i := range out {
			out[i] = e.r.NextDouble()
		}
		return expr.NewArray(arrow.PrimitiveTypes.Float64, n, nil, 0, vb), nil
	}
	b, err := e.Bound.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	bounds := expr.ValuesOf[int64](b)
	vb, out := expr.NewValues[int32](mem, n)
	for i := range out {
		if b.IsNull(i) {
			continue
		}
		if bounds[i] <= 0 || bounds[i] > 1<<31-1 {
			vb.Release()
			return nil, errBound
		}
		out[i] = e.r.NextInt(int32(bounds[i]))
	}
	validity, nulls := expr.AndValidity(mem, n, b)
	return expr.NewArray(arrow.PrimitiveTypes.Int32, n, validity, nulls, vb), nil
}

// UUID is UUID(): a random (version 4) UUID per row, from a
// cryptographically strong source.
type UUID struct{}

func (UUID) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (UUID) String() string           { return "UUID()" }

func (UUID) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	random := make([]byte, 16*n) // one read per batch
	if _, err := rand.Read(random); err != nil {
		return nil, err
	}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	b.ReserveData(36 * n)
	const hexDigits = "0123456789abcdef"
	var text [36]byte
	for i := range n {
		u := random[16*i : 16*i+16]
		u[6] = u[6]&0x0f | 0x40 // version 4
		u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
		k := 0
		for j, c := range u {
			if j == 4 || j == 6 || j == 8 || j == 10 {
				text[k] = '-'
				k++
			}
			text[k], text[k+1] = hexDigits[c>>4], hexDigits[c&15]
			k += 2
		}
		b.BinaryBuilder.Append(text[:])
	}
	return b.NewArray(), nil
}
