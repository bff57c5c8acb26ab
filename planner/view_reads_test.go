package planner

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql"
)

func parseSelect(t *testing.T, q string) *sql.Select {
	t.Helper()
	stmts, err := sql.Parse(q)
	require.NoError(t, err)
	return stmts[0].(*sql.Select)
}

// A view's items the outer query never names are unread, when they pass
// a column or a ROW field through; a *, a computed item or two items of
// one name keep them all read.
func TestUnreadViewItems(t *testing.T) {
	view := parseSelect(t, "SELECT bid.auction, bid.price, bid.url AS u, upper(bid.extra) AS e, dateTime FROM datagen WHERE event_type = 2")
	for _, c := range []struct {
		outer string
		cols  []string
		want  []bool
	}{
		{"SELECT auction, price FROM bid", nil, []bool{false, false, true, false, true}},
		{"SELECT auction FROM bid WHERE u LIKE '%x%'", nil, []bool{false, true, false, false, true}},
		{"SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '1' SECOND)) GROUP BY window_start, window_end", nil, []bool{true, true, true, false, false}},
		{"SELECT a FROM bid", []string{"a", "b", "c", "d", "e"}, []bool{false, true, true, false, true}},
		{"SELECT * FROM bid", nil, nil},
	} {
		require.Equal(t, c.want, unreadViewItems(parseSelect(t, c.outer), view, c.cols), c.outer)
	}
	twice := parseSelect(t, "SELECT bid.auction, auction.id AS auction FROM datagen")
	require.Nil(t, unreadViewItems(parseSelect(t, "SELECT 1 FROM v"), twice, nil))
}
