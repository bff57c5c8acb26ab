package setting

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// 'wsql.state.spill-after' is a memory size, or 0 for no spilling.
func TestParseSpillAfter(t *testing.T) {
	for v, want := range map[string]int64{"0": 0, "0 mb": 0, " 0 bytes ": 0, "16": 16, "128 mb": 128 << 20, "1 gb": 1 << 30} {
		got, err := ParseSpillAfter(v)
		require.NoError(t, err, v)
		require.Equal(t, want, got, v)
	}
	for _, v := range []string{"-1", "lots", "", "0 apples", "00x"} {
		_, err := ParseSpillAfter(v)
		require.Error(t, err, v)
	}
}
