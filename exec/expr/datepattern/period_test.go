package datepattern

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/rowtime"
)

// TestPeriodKeepsText checks Period's claim for patterns of every
// letter: two times in the same period, before and after 1970, write the
// same text, and the periods are the spans the letters name.
func TestPeriodKeepsText(t *testing.T) {
	periods := map[string]int64{
		"yyyy-MM-dd": msPerDay, "G yy u YYYY MMM LLLL QQQ q D d w W F EEEE e c": msPerDay, "'at' HH": 3_600_000,
		"h a": 3_600_000, "k K": 3_600_000, "HH:mm": 60_000, "yyyy-MM-dd HH:mm:ss": 1000,
		"HH:mm:ss.SSS": 1, "n": 1, "N": 1, "A": 1, "'literal only'": msPerDay,
	}
	r := rand.New(rand.NewPCG(3, 4))
	for pattern, want := range periods {
		l, err := CompileFormat(pattern)
		require.NoError(t, err, pattern)
		require.Equal(t, want, l.Period(), pattern)
		for range 2000 {
			ms := r.Int64N(400*365*msPerDay) - 200*365*msPerDay
			start := rowtime.FloorDiv(ms, want) * want
			other := start + r.Int64N(want)
			require.Equal(t, string(l.Append(nil, ms)), string(l.Append(nil, other)), "%s at %d and %d", pattern, ms, other)
		}
	}
}
