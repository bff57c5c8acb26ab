package nexmark

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// An event is drawn only as far as the fields a query reads: those fields
// are as when everything is read, the ones not drawn zeros and empty
// strings. So for each kind, whole and taken alone from the WHERE.
func TestNexmarkEventsDrawOnlyAsFarAsRead(t *testing.T) {
	reads := [3][][]string{
		{{"id"}, {"name", "dateTime"}, {"city"}, {"extra"}},
		{{"seller"}, {"id", "dateTime"}, {"category"}, {"itemName", "seller"}, {"extra"}},
		{{"auction"}, {"bidder", "Price"}, {"url"}, {"channel", "dateTime"}, {"extra"},
			{"auction", "price", "extra"}, {"extra", "url"}},
	}
	for _, only := range []bool{false, true} {
		for kind := range 3 {
			g, schema := newEvents(700, 3, [3]int64{})
			if only {
				g.PushEquals(0, int64(kind))
			}
			all := drainColumns(t, g, schema, 64)
			fields := EventColumns()[1+kind].Type.(*arrow.StructType).Fields()
			for _, read := range reads[kind] {
				g.Read = []bool{true, true, true, true}
				g.Fields = [][]string{nil, nil, nil, nil}
				g.Fields[1+kind] = read
				got := drainColumns(t, g, schema, 64)
				for c := range all {
					if c != 1+kind {
						require.Equal(t, all[c], got[c], "read %v, column %d", read, c)
					}
				}
				for i := range all[1+kind] {
					a, p := all[1+kind][i], got[1+kind][i]
					require.Equal(t, a == nil, p == nil, "row %d", i)
					for f := range a {
						if slices.ContainsFunc(read, func(r string) bool { return strings.EqualFold(r, fields[f].Name) }) {
							require.Equal(t, a[f], p[f], "read %v, row %d, field %s", read, i, fields[f].Name)
						} else if a[f] != p[f] {
							require.Contains(t, []string{"0", "", "1970-01-01T00:00:00"}, p[f], "read %v, row %d, field %s", read, i, fields[f].Name)
						}
					}
				}
			}
		}
	}
}

func TestNexmarkDrawDepth(t *testing.T) {
	require.Equal(t, depthKeys, depthOf("auction", []string{"id", "Seller", "dateTime"}))
	require.Equal(t, depthStrings, depthOf("auction", []string{"seller", "category"}))
	require.Equal(t, depthKeys, depthOf("person", []string{"id", "name", "dateTime"}))
	require.Equal(t, depthStrings, depthOf("person", []string{"state"}))
	require.Equal(t, depthPrice, depthOf("bid", []string{"price"}))
	require.Equal(t, depthBidExtra, depthOf("bid", []string{"Extra", "price", "bidder"}))
	require.Equal(t, depthAll, depthOf("bid", []string{"extra", "channel"}))
	require.Equal(t, depthAll, depthOf("bid", nil))
	require.Equal(t, depthAll, depthOf("person", []string{"EXTRA"}))
	require.Equal(t, depthAll, depthOf("auction", nil))
}

// A bid whose channel is not hot is at least the average size, however
// short its strings, so its extra is empty and appendBidExtra need not
// draw its url.
func TestColdBidsHaveNoExtra(t *testing.T) {
	require.GreaterOrEqual(t, nexmarkColdBidMinSize, nexmarkAvgBidSize)
	url := nexmarkURLPrefix + "abc/abc" + nexmarkURLQuery + "0"
	require.Equal(t, nexmarkColdBidMinSize, bidSize(len("channel-0")+len(url)))
}
