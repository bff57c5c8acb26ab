package planner

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// A HOP slide or CUMULATE step so small that one row opens more than
// windowop.MaxWindowsPerRow windows is refused when planning, at the
// argument, with the number of windows and the limit.
func TestWindowsPerRowAreBounded(t *testing.T) {
	cases := []struct {
		query string
		at    string
		msg   string
	}{
		{`SELECT COUNT(*) FROM clicks GROUP BY HOP(ts, INTERVAL '0.001' SECOND, INTERVAL '1' DAY)`, "INTERVAL '0.001'",
			"HOP slide 1 ms with size 1 d puts every row in 86400000 windows; at most 100000 are supported: use a slide of at least 864 ms"},
		{`SELECT window_start, COUNT(*) FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '0.01' SECOND, INTERVAL '1' HOUR)) GROUP BY window_start, window_end`, "INTERVAL '0.01'",
			"HOP slide 10 ms with size 1 h puts every row in 360000 windows; at most 100000 are supported: use a slide of at least 36 ms"},
		{`SELECT COUNT(*) FROM clicks GROUP BY CUMULATE(ts, INTERVAL '0.5' SECOND, INTERVAL '1' DAY)`, "INTERVAL '0.5'",
			"CUMULATE step 500 ms with size 1 d puts every row in 172800 windows; at most 100000 are supported: use a step of at least 864 ms that divides the size"},
		{`SELECT window_end, COUNT(*) FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '0.001' SECOND, INTERVAL '1' MINUTE)) GROUP BY window_start, window_end`, "",
			"CUMULATE step 1 ms with size 1 min puts every row in 60000 windows"},
	}
	for _, c := range cases[:3] {
		_, err := plan(t, c.query)
		require.ErrorContains(t, err, c.msg, c.query)
		var se *sql.Error
		require.ErrorAs(t, err, &se, c.query)
		require.Equal(t, 5, se.Pos.Line, c.query)
		require.Equal(t, strings.Index(c.query, c.at)+1, se.Pos.Col, "at the slide or step: %s", c.query)
	}
	// 60000 windows per row are within the limit, as is a day by seconds
	_, err := plan(t, cases[3].query)
	require.NoError(t, err)
	_, err = plan(t, `SELECT COUNT(*) FROM clicks GROUP BY HOP(ts, INTERVAL '1' SECOND, INTERVAL '1' DAY)`)
	require.NoError(t, err)
}

// A HOP slide larger than its size is usually the two intervals swapped:
// the plan warns at the HOP call (at TABLE for the window table
// function), naming Flink's argument order.
func TestHopSlideLargerThanSizeWarns(t *testing.T) {
	for _, query := range []string{
		`SELECT COUNT(*) FROM clicks GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '30' SECOND)`,
		`SELECT window_start, COUNT(*) FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '30' SECOND)) GROUP BY window_start, window_end`,
	} {
		stmts, err := sql.Parse(clicksDDL + ";\n" + query)
		require.NoError(t, err)
		cat := catalog.New()
		_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
		require.NoError(t, err)
		p, err := PlanSelect(stmts[1].(*sql.Select), cat, Options{})
		require.NoError(t, err, query)
		require.Len(t, p.Notices, 1, query)
		n := p.Notices[0]
		call := strings.Index(query, "TABLE(HOP(") // the window table function starts at TABLE
		if call < 0 {
			call = strings.Index(query, "HOP(")
		}
		require.Equal(t, [2]int{5, call + 1}, [2]int{n.At.Line, n.At.Col}, "at the HOP call: %s", query)
		require.Equal(t, "HOP slide 1 min is larger than its size 30 s: rows in the gaps between windows belong to no window; "+
			"the arguments are HOP(time, slide, size), as in Flink, so for 1 min windows every 30 s swap the two intervals", n.Msg, query)
	}
}
