package planner

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

func TestUnionErrorsPointAtTheQuery(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT ts, usr FROM clicks UNION ALL SELECT ts, usr, amount FROM clicks":                                                                                       "5:28: Column count mismatch in UNION ALL: the first query has 2 columns, query 2 has 3",
		"SELECT ts, usr FROM clicks UNION ALL SELECT ts, usr FROM clicks UNION ALL SELECT usr FROM clicks":                                                              "5:65: Column count mismatch in UNION ALL: the first query has 2 columns, query 3 has 1",
		"SELECT ts, usr FROM clicks UNION ALL SELECT ts, amount FROM clicks":                                                                                            "5:28: Type mismatch in column 2 (usr) of UNION ALL: STRING and DOUBLE have no common type; add a CAST",
		"SELECT usr, COUNT(*) FROM clicks GROUP BY usr UNION ALL SELECT usr, 1 FROM clicks":                                                                             "5:1: UNION ALL of the update stream of GroupAggregate(keys=[usr], aggs=[COUNT(*): BIGINT]) is not supported yet",
		"SELECT COUNT(*) FROM (SELECT PROCTIME() AS pt FROM clicks UNION ALL SELECT CAST(ts AS TIMESTAMP_LTZ(3)) FROM clicks) GROUP BY TUMBLE(pt, INTERVAL '1' MINUTE)": "5:59: column 1 (pt) of UNION ALL is PROCTIME() in one query but not in another, which is not supported yet",
		"SELECT usr FROM clicks UNION ALL SELECT DISTINCT usr FROM clicks":                                                                                              "5:34: UNION ALL of the update stream of GroupAggregate(keys=[usr], aggs=[]) is not supported yet",
		"SELECT COUNT(*) FROM (SELECT ts FROM clicks UNION ALL SELECT CAST(ts AS TIMESTAMP(3)) FROM clicks) GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)":                   "is not a time attribute",
	} {
		_, err := plan(t, q)
		require.ErrorContains(t, err, want, q)
		var se *sql.Error
		require.ErrorAs(t, err, &se, q)
	}
}

// TestUnionTypesAndTimeAttribute: the union's columns take the common type
// and the first query's names; the rowtime stays a time attribute when it
// is one in every query.
func TestUnionTypesAndTimeAttribute(t *testing.T) {
	stmts, err := sql.Parse(clicksDDL + ";\nSELECT ts, usr, CAST(amount AS INT) AS a FROM clicks UNION ALL SELECT ts, 'x', amount FROM clicks UNION ALL SELECT ts, usr, 1 FROM clicks")
	require.NoError(t, err)
	cat := catalog.New()
	_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	p, err := PlanSelect(stmts[1].(*sql.Select), cat, Options{})
	require.NoError(t, err)
	s := p.Schema()
	require.Equal(t, []string{"ts", "usr", "a"}, fieldNames(s))
	require.Equal(t, arrow.PrimitiveTypes.Float64, s.Field(2).Type)
	require.Equal(t, 0, p.TimeAttr)
	require.Len(t, p.Union, 3)
	require.NotNil(t, p.Union[0].Input, "the first query's INT is cast to DOUBLE")
	require.Nil(t, p.Union[1].Input, "the second query is DOUBLE already")
	job, err := p.Job()
	require.NoError(t, err)
	require.Len(t, job.Union, 3)
}

// PROCTIME() in every query of a union stays a processing-time attribute.
func TestUnionOfProctimeAttributes(t *testing.T) {
	_, err := plan(t, "SELECT COUNT(*) FROM (SELECT PROCTIME() AS pt FROM clicks UNION ALL SELECT PROCTIME() FROM clicks) GROUP BY TUMBLE(pt, INTERVAL '1' MINUTE)")
	require.NoError(t, err)
}
