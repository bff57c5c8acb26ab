package nexmark

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// A bid is drawn only as far as the fields a query reads: those fields
// are as when everything is read, the ones not drawn zeros and empty
// strings.
func TestNexmarkEventsDrawBidsOnlyAsFarAsRead(t *testing.T) {
	g, schema := newEvents(700, 3, [3]int64{})
	all := drainColumns(t, g, schema, 64)
	bidFields := EventColumns()[3].Type.(*arrow.StructType).Fields()
	for _, read := range [][]string{{"auction"}, {"bidder", "Price"}, {"url"}, {"channel", "dateTime"}, {"extra"}} {
		g.Read = []bool{true, true, true, true}
		g.Fields = [][]string{nil, nil, nil, read}
		got := drainColumns(t, g, schema, 64)
		require.Equal(t, all[:3], got[:3], "read %v", read)
		for i := range all[3] {
			a, p := all[3][i], got[3][i]
			require.Equal(t, a == nil, p == nil, "row %d", i)
			for f := range a {
				if slices.ContainsFunc(read, func(r string) bool { return strings.EqualFold(r, bidFields[f].Name) }) {
					require.Equal(t, a[f], p[f], "read %v, row %d, field %s", read, i, bidFields[f].Name)
				} else if a[f] != p[f] {
					require.Contains(t, []string{"0", ""}, p[f], "read %v, row %d, field %s", read, i, bidFields[f].Name)
				}
			}
		}
	}
}
