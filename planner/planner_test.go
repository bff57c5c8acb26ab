package planner

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

const clicksDDL = `CREATE TABLE clicks (
  ts TIMESTAMP(3), usr STRING, amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv', 'csv.field-delimiter' = '\t')`

func plan(t *testing.T, query string) (*exec.Job, error) {
	t.Helper()
	stmts, err := sql.Parse(clicksDDL + ";\n" + query)
	require.NoError(t, err)
	cat := catalog.New()
	_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	p, err := PlanSelect(stmts[1].(*sql.Select), cat, Options{BatchSize: 7})
	if err != nil {
		return nil, err
	}
	return p.Job()
}

func TestPlanTumbleQuery(t *testing.T) {
	job, err := plan(t, `SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart,
		TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt,
		COUNT(*) AS n, SUM(amount) AS total, COUNT(usr)
		FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`)
	require.NoError(t, err)
	require.Equal(t, 0, job.RowtimeIndex)
	require.Equal(t, int64(5000), job.DelayMillis)
	require.Equal(t, &windowop.Tumble{Size: 60_000}, job.Window.Assigner)
	require.Equal(t, []int{1}, job.Window.KeyIndexes)
	require.Equal(t, []windowop.AggSpec{
		{Kind: windowop.CountStar, Name: "agg0"},
		{Kind: windowop.Sum, Input: 2, Name: "agg1"},
		{Kind: windowop.Count, Input: 1, Name: "agg2"},
	}, job.Window.Aggs)
	// window output: usr, window_start, window_end, window_time, agg0, agg1, agg2
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 6}, job.Project.Columns)
	var names []string
	for _, f := range job.Schema().Fields() {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"usr", "wstart", "wend", "rt", "n", "total", "EXPR$6"}, names)
	require.Equal(t, byte('\t'), job.Source.(*textsource.Source).Decoding.(format.CSVDecoding).Options.FieldDelimiter)
	require.Equal(t, 7, job.Source.Spec().BatchSize)
	require.False(t, job.Source.Spec().Schema.Field(0).Nullable, "the rowtime column is NOT NULL to the decoder")
}

func TestPlanErrorsPointAtTheQuery(t *testing.T) {
	cases := map[string]string{
		`SELECT usr FROM clicks GROUP BY usr, TUMBLE(usr, INTERVAL '1' MINUTE)`:                                 "column usr is not a time attribute; the time attribute of table clicks is ts",
		`SELECT usr FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE), TUMBLE(ts, INTERVAL '2' MINUTE)`: "only one group window is allowed in GROUP BY",
		`SELECT * FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`:                                    "SELECT * cannot be used with GROUP BY",
		`SELECT SUM(usr) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)`:                                  "SUM expects a numeric argument, got STRING",
		`SELECT x.usr FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`:                                "unknown table x in x.usr",
		`SELECT COUNT(*) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '0' MINUTE)`:                                  "window size must be positive",
	}
	for q, msg := range cases {
		_, err := plan(t, q)
		require.ErrorContains(t, err, msg, q)
		var se *sql.Error
		require.ErrorAs(t, err, &se, q)
		require.Greater(t, se.Pos.Line, 1, "position inside the query: %s", q)
	}
}

func TestMisspelledWindowIsAnUnknownFunction(t *testing.T) {
	_, err := plan(t, "SELECT usr, COUNT(*) FROM clicks\nGROUP BY usr, TUMBEL(ts, INTERVAL '1' MINUTE)")
	require.EqualError(t, err, "6:15: unknown function TUMBEL; did you mean TUMBLE?")
	require.ErrorIs(t, err, sql.ErrInvalid)
}

func TestQualifiedColumnsAndAlias(t *testing.T) {
	_, err := plan(t, `SELECT c.usr, COUNT(*) FROM clicks AS c GROUP BY c.usr, TUMBLE(c.ts, INTERVAL '1' MINUTE)`)
	require.NoError(t, err)
}
