package sql

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// PARTITIONED BY comes after COMMENT and before WITH, as in Flink; its
// columns keep their positions for the catalog's errors.
func TestParsePartitionedBy(t *testing.T) {
	stmts, err := Parse("CREATE TABLE t (a INT, dt STRING, hm STRING) COMMENT 'c' PARTITIONED BY (dt, `hm`) WITH ('connector' = 'print')")
	require.NoError(t, err)
	ct := stmts[0].(*CreateTable)
	require.Len(t, ct.PartitionedBy, 2)
	require.Equal(t, "dt", ct.PartitionedBy[0].Name)
	require.Equal(t, "1:74", ct.PartitionedBy[0].At.String())
	require.Equal(t, "hm", ct.PartitionedBy[1].Name)
	require.Equal(t, "c", ct.Comment)
	require.Len(t, ct.Options, 1)

	_, err = Parse("CREATE TABLE t (a INT) WITH ('connector' = 'print') PARTITIONED BY (a)")
	require.ErrorContains(t, err, "expected WITH (...), LIKE, AS or the end of the statement, found PARTITIONED")
}
