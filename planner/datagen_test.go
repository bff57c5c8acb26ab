package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/datagen"
	"github.com/wsql/wsql/exec/connector/nexmark"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
)

// planTableWith plans a query over one table declared by ddl with opts.
func planTableWith(t *testing.T, ddl, query string, opts Options) (*Plan, error) {
	t.Helper()
	stmts, err := sql.Parse(ddl + ";\n" + query)
	require.NoError(t, err)
	cat := catalog.New()
	_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	return PlanSelect(stmts[1].(*sql.Select), cat, opts)
}

const generatorQuery = "SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"

func TestDatagenPlansFieldGenerators(t *testing.T) {
	ddl := `CREATE TABLE t (id BIGINT, s STRING, v INT, d DECIMAL(5, 2), x DOUBLE, ok BOOLEAN, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = '50', 'seed' = '9',
 'fields.id.kind' = 'sequence', 'fields.id.start' = '10', 'fields.id.end' = '20',
 'fields.s.length' = '4', 'fields.v.min' = '-3', 'fields.v.max' = '3',
 'fields.d.min' = '0.5', 'fields.d.max' = '9.99', 'fields.x.max' = '100', 'fields.ts.max-past' = '5 s')`
	p, err := planTable(t, ddl, generatorQuery)
	require.NoError(t, err)
	g := p.Source.(*exec.MakerSource).Maker.(*datagen.Source)
	require.Equal(t, int64(50), g.NumberOfRows)
	require.Equal(t, int64(11), g.Rows(), "the sequence ends the source first")
	require.Equal(t, int64(9), g.Seed)
	require.True(t, g.Throttle, "the system clock paces")
	require.Equal(t, datagen.Field{Name: "id", Sequence: true, Start: 10, End: 20}, g.Fields[0])
	require.Equal(t, 4, g.Fields[1].Length)
	require.Equal(t, [2]int64{-3, 3}, [2]int64{g.Fields[2].Min, g.Fields[2].Max})
	require.Equal(t, [2]int64{50, 999}, [2]int64{g.Fields[3].Min, g.Fields[3].Max}, "DECIMAL bounds unscaled")
	require.Equal(t, [2]float64{0, 100}, [2]float64{g.Fields[4].MinF, g.Fields[4].MaxF})
	require.Equal(t, 5*time.Second, g.Fields[6].MaxPast)
	require.Contains(t, p.Explain(), "TableSourceScan(table=[t], connector=[datagen], number-of-rows=[50], rows-per-second=[10000], seed=[9], sequence=[id=10..20], splits=[1], fields=[id, s, v, d, x, ok, ts])")
}

func TestDatagenUnderAManualClockDoesNotPace(t *testing.T) {
	ddl := `CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'rows-per-second' = '5')`
	p, err := planTableWith(t, ddl, generatorQuery, Options{Clock: rowtime.NewManualClock(time.Unix(0, 0))})
	require.NoError(t, err)
	g := p.Source.(*exec.MakerSource).Maker.(*datagen.Source)
	require.False(t, g.Throttle)
	require.False(t, g.Bounded())
	require.Contains(t, p.Explain(), "connector=[datagen], unbounded, rows-per-second=[5] (not paced: manual clock), seed=[0]")
}

func TestDatagenOptionErrorsPointAtTheOption(t *testing.T) {
	for opts, want := range map[string]string{
		`'number-of-rows' = '-1'`:                              "must not be negative",
		`'number-of-rows' = 'ten'`:                             "must be an integer",
		`'rows-per-sec' = '5'`:                                 "did you mean rows-per-second?",
		`'seed' = '1.5'`:                                       "must be an integer",
		`'fields.vv.min' = '1'`:                                "table t has no physical column vv; did you mean v?",
		`'fields.v.minimum' = '1'`:                             "unsupported option 'fields.v.minimum'",
		`'fields.v.kind' = 'randm'`:                            "must be 'random' or 'sequence'",
		`'fields.v.min' = '5', 'fields.v.max' = '1'`:           "option 'fields.v.max' (1) is less than 'fields.v.min' (5)",
		`'fields.v.max' = '99999999999'`:                       "out of range for INT",
		`'fields.v.length' = '3'`:                              "does not apply to column v of type INT with kind 'random'",
		`'fields.s.min' = '3'`:                                 "does not apply to column s of type STRING",
		`'fields.v.kind' = 'sequence', 'fields.v.start' = '1'`: "needs both 'fields.v.start' and 'fields.v.end'",
		`'fields.v.kind' = 'sequence', 'fields.v.start' = '5', 'fields.v.end' = '1'`: "option 'fields.v.end' (1) is less than 'fields.v.start' (5)",
		`'fields.v.kind' = 'sequence', 'fields.v.min' = '1'`:                         "does not apply to column v of type INT with kind 'sequence'",
		`'fields.ts.kind' = 'sequence'`:                                              "kind 'sequence' is not supported for column ts of type TIMESTAMP(3)",
		`'fields.ts.max-past' = 'soon'`:                                              "must be a duration",
		`'fields.d.max' = '1000'`:                                                    "out of range for the column's DECIMAL type",
		`'fields.x.min' = 'low'`:                                                     "must be a number",
		`'fields.c.min' = '1'`:                                                       "column c is computed",
	} {
		ddl := `CREATE TABLE t (v INT, s STRING, d DECIMAL(5, 2), x DOUBLE, ts TIMESTAMP(3), c AS PROCTIME(), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen',
 ` + opts + `)`
		_, err := planTable(t, ddl, generatorQuery)
		require.Error(t, err, opts)
		require.Contains(t, err.Error(), want, opts)
		var e *sql.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, 3, e.Pos.Line, "%s: the error points at the option", opts)
	}
}

func TestNexmarkPlansATable(t *testing.T) {
	ddl := `CREATE TABLE bid (price BIGINT, auction BIGINT, dateTime TIMESTAMP(3), WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND)
WITH ('connector' = 'nexmark', 'nexmark.table' = 'bid', 'events.num' = '1000', 'events.rate' = '50',
 'event.time.start' = '2023-05-06 07:08:09', 'seed' = '3')`
	p, err := planTable(t, ddl, "SELECT COUNT(*) FROM bid GROUP BY TUMBLE(dateTime, INTERVAL '1' MINUTE)")
	require.NoError(t, err)
	g := p.Source.(*exec.MakerSource).Maker.(*nexmark.Source)
	require.Equal(t, []int{2, 0, 5}, g.Columns)
	require.Equal(t, int64(920), g.Rows())
	require.Equal(t, time.Date(2023, 5, 6, 7, 8, 9, 0, time.UTC).UnixMilli(), g.TimeStart)
	require.Contains(t, p.Explain(), "TableSourceScan(table=[bid], connector=[nexmark], nexmark.table=[bid], events.num=[1000], events.rate=[50], event.time.start=[2023-05-06 07:08:09.000], seed=[3], splits=[1], fields=[price, auction, dateTime])")
}

func TestNexmarkErrorsPointAtTheOptionOrColumn(t *testing.T) {
	for _, c := range []struct {
		cols, opts, want string
		line             int
	}{
		{"auction BIGINT", `'nexmark.table' = 'bids'`, "must be one of person, auction, bid, got 'bids'; did you mean bid?", 3},
		{"auction BIGINT", `'events.rate' = '0'`, "must be a positive number", 3},
		{"auction BIGINT", `'events.num' = 'x'`, "must be an integer", 3},
		{"auction BIGINT", `'event.time.start' = 'yesterday'`, "must be a timestamp", 3},
		{"auction BIGINT", `'events.nums' = '5'`, "did you mean events.num?", 3},
		{"auctoin BIGINT", `'events.num' = '5'`, "nexmark table 'bid' has no column auctoin", 1},
		{"auction INT", `'events.num' = '5'`, "column auction of nexmark table 'bid' is BIGINT, not INT", 1},
	} {
		ddl := `CREATE TABLE t (` + c.cols + `)
WITH ('connector' = 'nexmark', 'nexmark.table' = 'bid',
 ` + c.opts + `)`
		if strings.Contains(c.opts, "nexmark.table") {
			ddl = strings.Replace(ddl, `'nexmark.table' = 'bid',`, "", 1)
		}
		_, err := planTable(t, ddl, "SELECT * FROM t")
		require.Error(t, err, c.opts)
		require.Contains(t, err.Error(), c.want)
		var e *sql.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, c.line, e.Pos.Line, c.want)
	}
	_, err := planTable(t, "CREATE TABLE t (auction BIGINT) WITH ('connector' = 'nexmark')", "SELECT * FROM t")
	require.ErrorContains(t, err, "column auction of the nexmark event table is ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>, not BIGINT (or give 'nexmark.table' for one of person, auction, bid)")
	_, err = planTable(t, "CREATE TABLE t (price BIGINT) WITH ('connector' = 'nexmark')", "SELECT * FROM t")
	require.ErrorContains(t, err, "the nexmark event table has no column price (its columns: event_type, person, auction, bid; or give 'nexmark.table' for one of person, auction, bid)")
}

// flinkNexmarkDDL is the table as Flink's nexmark project declares it.
const flinkNexmarkDDL = `CREATE TABLE datagen (
    event_type int,
    person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
    bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    dateTime AS CASE WHEN event_type = 0 THEN person.dateTime WHEN event_type = 1 THEN auction.dateTime ELSE bid.dateTime END,
    WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'first-event.rate' = '10000', 'next-event.rate' = '10000', 'events.num' = '1000', OPTIONS)`

func TestNexmarkPlansFlinksEventTable(t *testing.T) {
	ddl := strings.Replace(flinkNexmarkDDL, "OPTIONS", `'person.proportion' = '2', 'auction.proportion' = '3', 'bid.proportion' = '45', 'seed' = '7'`, 1)
	p, err := planTable(t, ddl, "SELECT MAX(bid.price) FROM datagen WHERE event_type = 2 GROUP BY TUMBLE(dateTime, INTERVAL '1' SECOND)")
	require.NoError(t, err)
	g := p.Source.(*exec.MakerSource).Maker.(*nexmark.Source)
	require.Equal(t, "", g.Table)
	require.Equal(t, [3]int64{2, 3, 45}, g.Proportions)
	require.Equal(t, "bid", g.Only, "the source takes the WHERE's kind")
	require.Nil(t, p.Where, "and no Filter evaluates it again")
	require.Equal(t, int64(900), g.Rows(), "the bids of 1000 events")
	require.Equal(t, int64(10000), g.Rate)
	// dateTime's CASE reads every ROW, but of the person and auction ROWs
	// only their dateTime: the source makes no persons or auctions.
	require.Equal(t, []bool{true, true, true, true}, g.Read)
	require.Equal(t, [][]string{nil, {"dateTime"}, {"dateTime"}, nil}, g.Fields)
	p, err = planTable(t, strings.Replace(ddl, "CASE WHEN event_type = 0 THEN person.dateTime WHEN event_type = 1 THEN auction.dateTime ELSE bid.dateTime END", "bid.dateTime", 1),
		"SELECT MAX(bid.price) FROM datagen WHERE event_type = 2 GROUP BY TUMBLE(dateTime, INTERVAL '1' SECOND)")
	require.NoError(t, err)
	require.Equal(t, []bool{true, false, false, true}, p.Source.(*exec.MakerSource).Maker.(*nexmark.Source).Read)
	// The kind is taken under a watermark at or behind the rowtime only:
	// events not made do not advance it.
	for _, c := range []struct{ watermark, where, only string }{
		{"dateTime - INTERVAL '4' SECOND", "event_type = 1", "auction"},
		{"dateTime", "0 = event_type AND bid.price > 0", "person"},
		{"dateTime + INTERVAL '1' SECOND", "event_type = 2", ""},
		{"dateTime - INTERVAL '4' SECOND", "event_type = 2 OR event_type = 1", ""},
		{"dateTime - INTERVAL '4' SECOND", "event_type = 7", ""},
	} {
		p, err = planTable(t, strings.Replace(ddl, "dateTime - INTERVAL '4' SECOND", c.watermark, 1),
			"SELECT MAX(bid.price) FROM datagen WHERE "+c.where+" GROUP BY TUMBLE(dateTime, INTERVAL '1' SECOND)")
		require.NoError(t, err)
		require.Equal(t, c.only, p.Source.(*exec.MakerSource).Maker.(*nexmark.Source).Only, c.where)
		require.Equal(t, c.where != "event_type = 1", p.Where != nil, "%s: the conditions the source did not take stay", c.where)
	}
	// A query reading a ROW whole (here through the view's bid.*) gets it whole.
	p, err = planTable(t, ddl, "SELECT MAX(bid.price), MAX(person.name) FROM datagen GROUP BY TUMBLE(dateTime, INTERVAL '1' SECOND)")
	require.NoError(t, err)
	require.Equal(t, [][]string{nil, nil, {"dateTime"}, nil}, p.Source.(*exec.MakerSource).Maker.(*nexmark.Source).Fields)
	require.Contains(t, p.Explain(), "connector=[nexmark], events.num=[1000], first-event.rate=[10000], person.proportion=[2], auction.proportion=[3], bid.proportion=[45], event.time.start=[2024-01-01 00:00:00.000], seed=[7]")

	// 'events.num' = '0' is unbounded, as in Flink; one proportion given
	// keeps the others' defaults.
	ddl = strings.Replace(strings.Replace(flinkNexmarkDDL, "OPTIONS", `'bid.proportion' = '6'`, 1), "'events.num' = '1000'", "'events.num' = '0'", 1)
	p, err = planTable(t, ddl, "SELECT event_type FROM datagen")
	require.NoError(t, err)
	g = p.Source.(*exec.MakerSource).Maker.(*nexmark.Source)
	require.False(t, g.Bounded())
	require.Equal(t, [3]int64{1, 3, 6}, g.Proportions)
}

func TestNexmarkEventTableErrors(t *testing.T) {
	for _, c := range []struct {
		ddl, want string
		line      int
	}{
		{strings.Replace(flinkNexmarkDDL, "bidder BIGINT", "bidder INT", 1), "column bid of the nexmark event table is ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP(3), extra STRING>, not ROW<", 5},
		{strings.Replace(flinkNexmarkDDL, "event_type int", "event_type BIGINT", 1), "column event_type of the nexmark event table is INT, not BIGINT", 2},
		{strings.Replace(flinkNexmarkDDL, "event_type int,", "event_type int, event_kind int,", 1), "the nexmark event table has no column event_kind", 2},
		{strings.Replace(flinkNexmarkDDL, "OPTIONS", `'rate.shape' = 'SINE'`, 1), "option 'rate.shape' of Flink's nexmark connector is not supported yet", 8},
		{strings.Replace(flinkNexmarkDDL, "OPTIONS", `'bid.hot-ratio.auctions' = '2'`, 1), "option 'bid.hot-ratio.auctions' of Flink's nexmark connector is not supported yet", 8},
		{strings.Replace(flinkNexmarkDDL, "OPTIONS", `'bid.proportion' = '0'`, 1), "option 'bid.proportion' must be a positive number", 8},
		{strings.Replace(flinkNexmarkDDL, "OPTIONS", `'bid.proportoin' = '3'`, 1), "did you mean bid.proportion?", 8},
		{strings.Replace(flinkNexmarkDDL, "OPTIONS", `'events.rate' = '3'`, 1), "options 'events.rate' and 'first-event.rate' are the same; give one", 8},
		{strings.Replace(flinkNexmarkDDL, "'next-event.rate' = '10000'", "'next-event.rate' = '5000'", 1), "option 'next-event.rate' = '5000' differs from the rate of the first events (10000): rate shapes are not supported yet", 8},
	} {
		ddl := strings.Replace(c.ddl, ", OPTIONS", "", 1)
		_, err := planTable(t, ddl, "SELECT event_type FROM datagen")
		require.Error(t, err, c.want)
		require.Contains(t, err.Error(), c.want)
		var e *sql.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, c.line, e.Pos.Line, c.want)
	}
}
