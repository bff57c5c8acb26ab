package windowop

import (
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/checkpoint"
)

// Helpers the accumulators share to save and load their per-slot arrays.

// fit fails d unless v, a per-slot array just read, has one entry for
// each of the n slots: state for another slot count is corrupt, not
// something to pad or cut.
func fit[T any](d *checkpoint.Decoder, v []T, n int) []T {
	if d.Err() == nil && len(v) != n {
		d.Fail("%d slots of accumulator state, want %d", len(v), n)
	}
	return v
}

// rowCounts fails d if a row count read is negative, which no update makes.
func rowCounts(d *checkpoint.Decoder, v []int64) []int64 {
	for _, c := range v {
		if c < 0 {
			d.Fail("negative row count %d", c)
			break
		}
	}
	return v
}

func saveInt192s(e *checkpoint.Encoder, v []int192) {
	e.Uint(uint64(len(v)))
	for _, x := range v {
		e.Uint(x.lo)
		e.Uint(x.mid)
		e.Int(x.hi)
	}
}

func loadInt192s(d *checkpoint.Decoder, n int) []int192 {
	v := make([]int192, d.Len(3))
	for i := range v {
		v[i] = int192{lo: d.Uint(), mid: d.Uint(), hi: d.Int()}
	}
	return fit(d, v, n)
}

func saveDecimal(e *checkpoint.Encoder, x decimal128.Num) {
	e.Int(x.HighBits())
	e.Uint(x.LowBits())
}

func loadDecimal(d *checkpoint.Decoder) decimal128.Num {
	hi := d.Int()
	return decimal128.New(hi, d.Uint())
}

func saveDecimals(e *checkpoint.Encoder, v []decimal128.Num) {
	e.Uint(uint64(len(v)))
	for _, x := range v {
		saveDecimal(e, x)
	}
}

func loadDecimals(d *checkpoint.Decoder, n int) []decimal128.Num {
	v := make([]decimal128.Num, d.Len(2))
	for i := range v {
		v[i] = loadDecimal(d)
	}
	return fit(d, v, n)
}
