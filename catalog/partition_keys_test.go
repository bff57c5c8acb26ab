package catalog

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql"
)

func TestPartitionKeys(t *testing.T) {
	c := New()
	tbl, err := createTable(t, c, `CREATE TABLE t (msg STRING, DT STRING, hm STRING) PARTITIONED BY (dt, HM) WITH ('c' = 'v')`)
	require.NoError(t, err)
	require.Equal(t, []string{"DT", "hm"}, tbl.PartitionKeys, "as the columns spell them, in PARTITIONED BY order")
	require.Equal(t, "1:67", tbl.PartitionsAt.String())

	for _, tc := range []struct{ src, err string }{
		{`CREATE TABLE u (msg STRING, dt STRING) PARTITIONED BY (dtt) WITH ('c' = 'v')`,
			"1:56: partition column dtt is not a column of table u; did you mean dt?"},
		{`CREATE TABLE u (msg STRING, dt STRING) PARTITIONED BY (dt, day) WITH ('c' = 'v')`,
			"1:60: partition column day is not a column of table u (its columns: msg, dt)"},
		{`CREATE TABLE u (e BIGINT, dt AS TO_TIMESTAMP_LTZ(e, 3)) PARTITIONED BY (dt) WITH ('c' = 'v')`,
			"1:73: partition column dt is a computed column; partition columns must be physical columns"},
		{`CREATE TABLE u (msg STRING, f STRING METADATA FROM 'file.name') PARTITIONED BY (f) WITH ('c' = 'v')`,
			"1:81: partition column f is a metadata column; partition columns must be physical columns"},
		{`CREATE TABLE u (msg STRING, dt STRING) PARTITIONED BY (dt, dt) WITH ('c' = 'v')`,
			"1:60: partition column dt is listed twice"},
	} {
		_, err := createTable(t, New(), tc.src)
		require.EqualError(t, err, tc.err, tc.src)
	}
}

// LIKE takes the source's partitions (INCLUDING PARTITIONS, the default),
// refuses a second PARTITIONED BY then, and leaves them with EXCLUDING.
func TestLikePartitions(t *testing.T) {
	c := New()
	_, err := createTable(t, c, `CREATE TABLE src (msg STRING, dt STRING) PARTITIONED BY (dt) WITH ('c' = 'v')`)
	require.NoError(t, err)
	like := func(src string) (*Table, error) {
		stmts, err := sql.Parse(src)
		require.NoError(t, err)
		merged, err := c.MergeLike(stmts[0].(*sql.CreateTable))
		if err != nil {
			return nil, err
		}
		return NewTable(merged)
	}
	tbl, err := like(`CREATE TABLE a WITH ('c' = 'w') LIKE src`)
	require.NoError(t, err)
	require.Equal(t, []string{"dt"}, tbl.PartitionKeys)
	tbl, err = like(`CREATE TABLE b LIKE src (EXCLUDING PARTITIONS)`)
	require.NoError(t, err)
	require.Nil(t, tbl.PartitionKeys)
	tbl, err = like(`CREATE TABLE b (x STRING) PARTITIONED BY (x) LIKE src (EXCLUDING PARTITIONS)`)
	require.NoError(t, err)
	require.Equal(t, []string{"x"}, tbl.PartitionKeys)
	_, err = like(`CREATE TABLE b (x STRING) PARTITIONED BY (x) LIKE src`)
	require.EqualError(t, err, "1:43: the base table src already has partitions defined; you might want to specify EXCLUDING PARTITIONS")
}
