package nexmark

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/generator"
)

// TestNexmarkPriceIsMathPows checks the fast price against the formula it
// replaces, over many draws, and the fast power's error against the margin
// it is trusted to.
func TestNexmarkPriceIsMathPows(t *testing.T) {
	r, ref := generator.NewPCG(3, 4), generator.NewPCG(3, 4)
	worst := 0.0
	n := 2_000_000
	if testing.Short() {
		n = 200_000
	}
	for range n {
		got := nexmarkPrice(&r)
		y := ref.Float64() * 6
		want := int64(math.Round(math.Pow(10, y) * 100))
		if got != want {
			t.Fatalf("price at 10^%v: %d, want %d", y, got, want)
		}
		worst = max(worst, math.Abs(nexmarkPow10(y)/math.Pow(10, y)-1))
	}
	if worst > nexmarkPriceMargin/100 {
		t.Fatalf("the fast power is off by %g, beyond a hundredth of the margin", worst)
	}
	t.Logf("worst relative error %g", worst)
	// The ends and the table's knots.
	for _, y := range []float64{0, 6, math.Nextafter(6, 0), 1.0 / 4096, 255.0 / 4096, 1.5, 3} {
		if got, want := nexmarkPow10(y), math.Pow(10, y); math.Abs(got/want-1) > nexmarkPriceMargin/100 {
			t.Errorf("10^%v: %v, want %v", y, got, want)
		}
	}
}

// bidPrices makes the prices of the rows listed, each as nexmarkPriceOf
// makes it, and leaves the other rows as they were.
func TestBidPricesAreNexmarkPrices(t *testing.T) {
	r := generator.NewPCG(3, 4)
	draws := make([]int64, 100_000)
	var rows []int32
	for i := range draws {
		draws[i] = int64(r.Uint64())
		if i%3 != 1 {
			rows = append(rows, int32(i))
		}
	}
	price := slices.Clone(draws)
	bidPrices(price, rows)
	for i, u := range draws {
		want := u
		if i%3 != 1 {
			want = nexmarkPriceOf(uint64(u))
		}
		require.Equal(t, want, price[i], "row %d", i)
	}
}
