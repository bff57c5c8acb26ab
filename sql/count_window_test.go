package sql

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCountSizes(t *testing.T) {
	for _, tc := range []struct {
		group       string
		size, slide int64
		ok          bool
	}{
		{"usr, COUNT_WINDOW(3)", 3, 3, true},
		{"COUNT_WINDOW(5, 2), usr", 5, 2, true},
		{"usr, count_window(4, 4)", 4, 4, true},
		{"usr, TUMBLE(ts, INTERVAL '1' MINUTE)", 0, 0, false},
	} {
		stmts, err := Parse("SELECT usr, COUNT(*) FROM clicks GROUP BY " + tc.group)
		require.NoError(t, err, tc.group)
		var call *WindowCall
		for _, g := range stmts[0].(*Select).GroupBy {
			if w, ok := g.(*WindowCall); ok {
				call = w
			}
		}
		require.NotNil(t, call, tc.group)
		size, slide, ok := call.CountSizes()
		require.Equal(t, tc.ok, ok, tc.group)
		require.Equal(t, tc.size, size, tc.group)
		require.Equal(t, tc.slide, slide, tc.group)
	}
	// Calls Parse would not produce are not count windows.
	bad := &WindowCall{Kind: CountWindow, Args: []Expr{&Literal{Kind: LitInt, Text: "2"}, &Literal{Kind: LitInt, Text: "3"}}}
	_, _, ok := bad.CountSizes()
	require.False(t, ok)
	require.Equal(t, "COUNT_WINDOW", CountWindow.String())
}
