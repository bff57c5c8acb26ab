package rowtime

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// A restored CombinedWatermark assigns the same per-row watermarks as the
// one it was saved from.
func TestCombinedWatermarkStateRoundTrip(t *testing.T) {
	a := NewCombinedWatermark(3, 5, 0, nil)
	rows := make([]int64, 3)
	a.Assign(0, []int64{100, 90, 120}, rows)
	a.Assign(1, []int64{50}, rows)
	a.EndSplit(2)

	var e checkpoint.Encoder
	a.SaveState(&e)
	b := NewCombinedWatermark(3, 5, 0, nil)
	d := checkpoint.NewDecoder(e.Data())
	b.RestoreState(d)
	require.NoError(t, d.Finish())
	require.Equal(t, a.Current(), b.Current())

	ra, rb := make([]int64, 2), make([]int64, 2)
	require.Equal(t, a.Assign(1, []int64{200, 130}, ra), b.Assign(1, []int64{200, 130}, rb))
	require.Equal(t, ra, rb)
	require.Equal(t, a.EndSplit(0), b.EndSplit(0))

	c := NewCombinedWatermark(2, 5, 0, nil)
	d = checkpoint.NewDecoder(e.Data())
	c.RestoreState(d)
	require.ErrorIs(t, d.Err(), checkpoint.ErrCorrupt, "another number of splits")
}
