package windowop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKeyIndexNumbersInOrder puts random byte strings (the empty one,
// prefixes of each other, zero bytes) through keyIndex's growth and checks
// each id against a map numbering them in order of first put.
func TestKeyIndexNumbersInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	var x keyIndex
	want := map[string]uint32{}
	for step := range 50000 {
		var k []byte
		switch r.IntN(4) {
		case 0:
			k = make([]byte, r.IntN(3)) // "", "\x00", "\x00\x00"
		case 1:
			k = []byte("channel-1234567890")[:r.IntN(19)]
		default:
			k = fmt.Appendf(nil, "key %d", r.IntN(20000))
		}
		id, found := x.getOrPut(k, x.hash(k))
		w, ok := want[string(k)]
		if !ok {
			w = uint32(len(want))
			want[string(k)] = w
		}
		require.Equal(t, ok, found, "step %d key %q", step, k)
		require.Equal(t, w, id, "step %d key %q", step, k)
		require.Equal(t, len(want), x.len())
	}
	for k, id := range want {
		require.Equal(t, k, string(x.key(id)))
	}
	require.LessOrEqual(t, x.len()*4, len(x.table)*3)
}
