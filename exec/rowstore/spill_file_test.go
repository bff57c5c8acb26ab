package rowstore

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpillFileReadsWhatWasAppended appends pieces of every size (one
// larger than the write buffer, which grows it) and reads spans back
// after each: from the file what was written, from the buffer the last
// partial block, across the two. Written directly where the system can,
// and through the page cache.
func TestSpillFileReadsWhatWasAppended(t *testing.T) {
	for _, direct := range []bool{true, false} {
		t.Run(map[bool]string{true: "direct", false: "page cache"}[direct], func(t *testing.T) {
			b := NewBudget(1, t.TempDir())
			defer b.Close()
			sf, err := openSpillFile(b)
			require.NoError(t, err)
			if direct && sf.direct == nil {
				t.Log("no direct I/O in this file system: written through the page cache")
			}
			if !direct && sf.direct != nil {
				sf.direct.Close()
				sf.direct = nil
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var want []byte
			sizes := []int{1, 7, 4095, 4096, 4097, 100_000, spillWriteBuffer + 12345, 3, 700_000, 900_000, 50}
			for _, n := range sizes {
				piece := make([]byte, n)
				for i := range piece {
					piece[i] = byte(rng.Uint32())
				}
				sf.buf = append(sf.buf, piece...)
				require.NoError(t, sf.appended(n))
				want = append(want, piece...)
				require.Equal(t, int64(len(want)), sf.size)

				var spans []span
				for range 50 {
					off := rng.IntN(len(want))
					spans = append(spans, span{off: int64(off), n: rng.IntN(min(len(want)-off, 9000)) + 1})
				}
				// the last bytes, and those either side of the last block start
				spans = append(spans, span{off: int64(len(want) - 1), n: 1})
				if edge := len(want) / spillBlock * spillBlock; edge >= 10 && edge+10 <= len(want) {
					spans = append(spans, span{off: int64(edge - 10), n: 20})
				}
				slices.SortFunc(spans, func(a, b span) int { return int(a.off - b.off) })
				total := 0
				for _, s := range spans {
					total += s.n
				}
				out := make([]byte, total)
				require.NoError(t, sf.readSpans(spans, out))
				at := 0
				for _, s := range spans {
					require.Equal(t, want[s.off:s.off+int64(s.n)], out[at:at+s.n], "span %+v of %d bytes", s, len(want))
					at += s.n
				}
			}
			if direct && sf.direct != nil {
				require.True(t, aligned(sf.buf), "the buffer grown by the large piece is aligned again")
			}
			require.NoError(t, sf.close())
		})
	}
}
