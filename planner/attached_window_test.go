package planner

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// planClicks plans query after the clicks table and the per-user counts
// of a HOP window, whose bounds the view renames.
func planClicks(t *testing.T, query string) *Plan {
	t.Helper()
	const view = `CREATE VIEW per_user AS
SELECT usr, COUNT(*) AS n, window_start AS starttime, window_end AS endtime
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
GROUP BY usr, window_start, window_end`
	stmts, err := sql.Parse(clicksDDL + ";\n" + view + ";\n" + query)
	require.NoError(t, err)
	cat := catalog.New()
	_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	_, err = cat.CreateView(stmts[1].(*sql.CreateView))
	require.NoError(t, err)
	p, err := PlanSelect(stmts[2].(*sql.Select), cat, Options{BatchSize: 7})
	require.NoError(t, err, query)
	_, err = p.Job()
	require.NoError(t, err, query)
	return p
}

// A GROUP BY of both window bounds of a window aggregation's rows, under
// any names and with other keys or expressions beside them, is a window
// aggregation attached to the rows' windows: insert-only, with the window
// of the rows it reads, its bounds among the keys.
func TestAttachedWindowIsRecognised(t *testing.T) {
	for _, q := range []string{
		`SELECT MAX(n) AS maxn, starttime, endtime FROM per_user GROUP BY starttime, endtime`,
		`SELECT endtime, MAX(n) FROM per_user GROUP BY endtime, starttime`,
		`SELECT usr, starttime, SUM(n) FROM per_user GROUP BY usr, starttime, endtime HAVING SUM(n) > 1`,
		`SELECT UPPER(usr), s, e, SUM(n) FROM (SELECT usr, n, starttime AS s, endtime AS e FROM per_user WHERE n > 1) GROUP BY s, e, UPPER(usr)`,
		`SELECT window_start, COUNT(*) FROM (SELECT usr, window_start, window_end FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))) GROUP BY window_start, window_end`,
	} {
		p := planClicks(t, q)
		require.NotNil(t, p.Attached, q)
		require.False(t, p.Group, q)
		require.False(t, p.Updates(), "an attached window aggregation is insert-only: %s", q)
		require.Contains(t, p.Explain(), "window=[attached: ", q)
	}
	p := planClicks(t, `SELECT MAX(n) AS maxn, starttime, endtime FROM per_user GROUP BY starttime, endtime`)
	require.Equal(t, Window{Kind: sql.Hop, Slide: 2000, Size: 10000}, func() Window { w := p.Window; w.At = sql.Pos{}; return w }())
	require.Contains(t, p.Explain(), "window=[attached: HOP(slide=2 s, size=10 s) from starttime, endtime]")
	start, end, _, ok := windowBounds(p)
	require.True(t, ok)
	require.Equal(t, []int{1, 2}, []int{start, end}, "maxn, starttime, endtime: the bounds a window join finds")
}

// Not an attached window: a GROUP BY of one bound only, a bound inside an
// expression (no longer a window property), the bounds of a GroupAggregate
// or of a legacy GROUP BY HOP(...) (HOP_START is not a window property in
// Flink): each stays a GroupAggregate, an update stream.
func TestAttachedWindowNotRecognised(t *testing.T) {
	for _, q := range []string{
		`SELECT starttime, MAX(n) FROM per_user GROUP BY starttime`,
		`SELECT e, MAX(n) FROM (SELECT n, starttime, endtime + INTERVAL '0' SECOND AS e FROM per_user) GROUP BY starttime, e`,
		`SELECT s, e, MAX(n) FROM (SELECT usr, MAX(starttime) AS s, MAX(endtime) AS e, SUM(n) AS n FROM per_user GROUP BY usr) GROUP BY s, e`,
		`SELECT s, e, MAX(n) FROM (SELECT usr, COUNT(*) AS n, HOP_START(ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND) AS s, HOP_END(ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND) AS e FROM clicks GROUP BY usr, HOP(ts, INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY s, e`,
		`SELECT usr, MAX(n) FROM per_user GROUP BY usr`,
	} {
		p := planClicks(t, q)
		require.Nil(t, p.Attached, q)
		require.True(t, p.Group, q)
		require.NotContains(t, p.Explain(), "attached", q)
	}
}

// The join of a window aggregation's rows with an attached window
// aggregation of them on both bounds is a window join (Nexmark q5).
func TestAttachedWindowJoinsByWindow(t *testing.T) {
	p := planClicks(t, `SELECT a.usr, a.n FROM per_user AS a
JOIN (SELECT MAX(n) AS maxn, starttime, endtime FROM per_user GROUP BY starttime, endtime) AS m
ON a.starttime = m.starttime AND a.endtime = m.endtime AND a.n >= m.maxn`)
	require.Contains(t, p.Explain(), "WindowJoin(joinType=[InnerJoin], window=[HOP(slide=2 s, size=10 s)], keys=[]")
	require.False(t, p.Updates())
}

// The tumbling window an attached window runs as ends wherever the
// input's windows end, so each fires as soon as the watermark passes it.
func TestAttachedAssignerEndsWithTheWindows(t *testing.T) {
	for _, w := range []Window{
		{Kind: sql.Hop, Slide: 20_000, Size: 50_000},
		{Kind: sql.Hop, Slide: 3_000, Size: 10_000, Offset: 1_000},
		{Kind: sql.Cumulate, Step: 20_000, Size: 60_000, Offset: -5_000},
		{Kind: sql.Tumble, Size: 60_000, Offset: 7_000},
	} {
		a, err := attachedAssigner(w)
		require.NoError(t, err)
		size, offset := a.(interface{ Pane() (int64, int64) }).Pane()
		for k := int64(-3); k < 10; k++ {
			var end int64
			switch w.Kind {
			case sql.Hop:
				end = w.Offset + k*w.Slide + w.Size
			case sql.Cumulate:
				end = w.Offset + k*w.Step
			default:
				end = w.Offset + k*w.Size
			}
			r := (end - offset) % size
			require.Zero(t, r, "%v: a window ending at %d", w, end)
		}
	}
}

// An attached window aggregation keeps the window: one over it is
// attached again, and a Top-N partitioned by its bounds is a window Top-N.
func TestAttachedWindowCascades(t *testing.T) {
	const maxBids = `(SELECT MAX(n) AS maxn, starttime AS s, endtime AS e FROM per_user GROUP BY starttime, endtime)`
	p := planClicks(t, `SELECT s, e, SUM(maxn) FROM `+maxBids+` GROUP BY e, s`)
	require.NotNil(t, p.Attached)
	require.Contains(t, p.Explain(), "window=[attached: HOP(slide=2 s, size=10 s) from s, e]")
	p = planClicks(t, `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY s, e ORDER BY maxn DESC) AS rn FROM `+maxBids+`) WHERE rn <= 1`)
	require.Contains(t, p.Explain(), "WindowRank(ROW_NUMBER, window=[win_start=[s], win_end=[e]]", "a window Top-N")
}
