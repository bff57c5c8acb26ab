package planner

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/nexmark"
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
		require.Equal(t, c.want, unreadViewItems(readsThrough(parseSelect(t, c.outer), nil), view, c.cols), c.outer)
	}
	twice := parseSelect(t, "SELECT bid.auction, auction.id AS auction FROM datagen")
	require.Nil(t, unreadViewItems(readsThrough(parseSelect(t, "SELECT 1 FROM v"), nil), twice, nil))
}

// nexmarkBidFields plans query over the Nexmark DDL and returns the bid
// ROW fields the generator is told the query reads.
func nexmarkBidFields(t *testing.T, query string) []string {
	t.Helper()
	ddl, err := os.ReadFile("../testdata/nexmark/ddl.sql")
	require.NoError(t, err)
	stmts, err := sql.Parse(string(ddl) + ";\n" + query)
	require.NoError(t, err)
	cat := catalog.New()
	var p *Plan
	for _, st := range stmts {
		switch s := st.(type) {
		case *sql.CreateTable:
			_, err = cat.CreateTable(s)
		case *sql.CreateView:
			_, err = cat.CreateView(s)
		case *sql.Select:
			p, err = PlanSelect(s, cat, Options{})
		}
		require.NoError(t, err)
	}
	for p.Source == nil {
		switch {
		case p.Input != nil:
			p = p.Input
		case len(p.Union) > 0:
			p = p.Union[len(p.Union)-1]
		default:
			t.Fatal("a plan with neither a source nor an input")
		}
	}
	g := p.Source.(*exec.MakerSource).Maker.(*nexmark.Source)
	return g.Fields[3]
}

// A * passes every column on, so the names its readers read it by count
// too: q12's subquery (and its TVF form's view) SELECT *, PROCTIME() FROM
// bid reads only the bidder of a bid, as the query over it names (and
// the dateTime the table's rowtime is computed from); a * at
// the top reads every field, for the sink.
func TestViewReadsThroughAStar(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"SELECT bidder, COUNT(*) FROM (SELECT *, PROCTIME() AS p_time FROM bid) B GROUP BY bidder, TUMBLE(p_time, INTERVAL '10' SECOND)", []string{"bidder", "dateTime"}},
		{"CREATE VIEW B AS SELECT *, PROCTIME() AS p_time FROM bid; SELECT bidder, COUNT(*) FROM TABLE(TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '10' SECOND)) GROUP BY bidder, window_start, window_end", []string{"bidder", "dateTime"}},
		{"SELECT auction, price FROM (SELECT * FROM (SELECT * FROM bid) x) y", []string{"auction", "price", "dateTime"}},
		{"SELECT * FROM (SELECT * FROM bid) x", nil},
		{"CREATE VIEW B (a, b, c, d, e, f, g) AS SELECT * FROM bid; SELECT a FROM B", nil},
		{"SELECT auction FROM (SELECT * FROM bid UNION ALL SELECT * FROM bid) x", nil},
	} {
		if c.want == nil {
			c.want = []string{"auction", "bidder", "price", "channel", "url", "dateTime", "extra"}
		}
		require.ElementsMatch(t, c.want, nexmarkBidFields(t, c.query), c.query)
	}
}
