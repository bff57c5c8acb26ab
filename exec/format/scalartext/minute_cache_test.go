package scalartext

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// TestMinuteCacheReadsWhatParseTimestampReads: over timestamps whose
// minute changes now and then, with every form and some invalid ones,
// the cache gives ParseTimestamp's value whenever it gives one, and
// gives one for every plain valid value.
func TestMinuteCacheReadsWhatParseTimestampReads(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	units := []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond}
	for _, unit := range units {
		var m MinuteCache
		read := 0
		for range 20000 {
			s := randomTimestampText(r)
			want, msg := ParseTimestamp([]byte(s), false, unit)
			got, ok := m.Parse([]byte(s), unit)
			if ok {
				require.Empty(t, msg, "%q", s)
				require.Equal(t, want, got, "%q in %v", s, unit)
				read++
			} else if msg == "" && unit != arrow.Nanosecond {
				t.Fatalf("%q is valid (%d) but the cache did not read it", s, want)
			}
		}
		if unit != arrow.Nanosecond {
			require.Greater(t, read, 8000) // about half the texts are valid
		}
	}
}

// randomTimestampText is a timestamp text near 2024-03-01 09:00, mostly
// valid: with or without seconds and fraction, 'T' or ' ', and now and
// then a field out of range or a stray character.
func randomTimestampText(r *rand.Rand) string {
	day, hour, minute, sec := 1+r.IntN(2), 9+r.IntN(2), r.IntN(3), r.IntN(60)
	switch r.IntN(40) {
	case 0:
		sec = 60
	case 1:
		minute = 60
	case 2:
		day = 30 // February
	case 3:
		hour = 24
	}
	month := 3
	if day == 30 {
		month = 2
	}
	sep := " "
	if r.IntN(5) == 0 {
		sep = "T"
	}
	s := fmt.Sprintf("2024-%02d-%02d%s%02d:%02d", month, day, sep, hour, minute)
	switch r.IntN(6) {
	case 0:
		return s
	case 1:
		return s + fmt.Sprintf(":%02d", sec)
	case 2:
		return s + fmt.Sprintf(":%02d.", sec) // no digits after the point
	case 3:
		return s + fmt.Sprintf(":%02d.%0*d", sec, 10, r.IntN(100)) // ten digits
	case 4:
		return s + fmt.Sprintf(":%02dx", sec)
	}
	digits := 1 + r.IntN(9)
	return s + fmt.Sprintf(":%02d.%0*d", sec, digits, r.IntN(1000))
}
