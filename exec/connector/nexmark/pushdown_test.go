package nexmark

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

// The event stream that took WHERE event_type = k makes the rows the
// whole stream holds for events of kind k, the same values, whatever the
// batch size, the proportions and the fields read; the read counts every
// event.
func TestNexmarkEventsOfOneKindAreTheStreamFiltered(t *testing.T) {
	for _, p := range [][3]int64{{}, {2, 5, 13}} {
		for kind := range 3 {
			g, schema := newEvents(2345, 9, p)
			all := generatortest.Drain(t, g, schema, 4096)
			var want []string
			for _, row := range all {
				if strings.HasPrefix(row, fmt.Sprint(kind, "|")) {
					want = append(want, row)
				}
			}
			require.True(t, g.PushEquals(0, int64(kind)))
			require.False(t, g.PushEquals(0, int64((kind+1)%3)), "a second kind is not taken")
			require.Equal(t, int64(len(want)), g.Rows())
			for _, size := range []int{1, 7, 4096} {
				require.Equal(t, want, generatortest.Drain(t, g, schema, size), "kind %d, proportions %v, batch size %d", kind, p, size)
			}
			// Only the times of the kind's ROW read (the computed dateTime),
			// the ROWs of the other kinds not at all.
			g.Read = []bool{true, false, false, false}
			g.Read[1+kind] = true
			g.Fields = [][]string{nil, nil, nil, nil}
			g.Fields[1+kind] = []string{"dateTime"}
			times := generatortest.Drain(t, g, schema, 64)
			require.Len(t, times, len(want))
			dateTime := regexp.MustCompile(`"dateTime":"[^"]*"`)
			for i := range want {
				require.Equal(t, dateTime.FindString(want[i]), dateTime.FindString(times[i]), "row %d: %s", i, times[i])
				require.Equal(t, strings.Count(want[i], "(null)"), strings.Count(times[i], "(null)"), "row %d: %s", i, times[i])
			}
		}
	}
	g, _ := newEvents(10, 1, [3]int64{})
	require.False(t, g.PushEquals(1, 2), "not event_type")
	require.False(t, g.PushEquals(0, 3), "no such kind")
	tg, _ := newNexmark("bid", 10, 1)
	require.False(t, tg.PushEquals(0, 2), "a table of one kind")
}

// The read counts the events it stepped over: every event once the kind's
// rows are out, and mid-way every event before the next one made.
func TestNexmarkEventsOfOneKindCountEveryEvent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	g, schema := newEvents(1003, 4, [3]int64{})
	require.True(t, g.PushEquals(0, kindAuction))
	r, err := g.Open(mem, schema, 5)
	require.NoError(t, err)
	b, err := r.Next()
	require.NoError(t, err)
	b.Record.Release()
	// 5 auctions: the 3 of the first cycle, 2 of the second; the next is
	// event 53.
	require.Equal(t, int64(53), r.Stats().Rows)
	require.Equal(t, int64(48), r.Stats().Stepped)
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if b.Record != nil {
			b.Record.Release()
		}
	}
	require.Equal(t, int64(1003), r.Stats().Rows)
	require.Equal(t, int64(1003-62), r.Stats().Stepped, "62 auctions in 1003 events")
	require.NoError(t, r.Close())
}
