package planner

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

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
