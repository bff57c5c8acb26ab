package connector_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// A PARTITIONED BY table is written only by a connector whose sinks take
// partitions; another's refuses it at PARTITIONED BY, naming those that do.
func TestPartitionedTableNeedsAPartitioningSink(t *testing.T) {
	// not registered: the registry's listings stay the builtins'
	c := &connector.Connector{Name: "flat-test", NewSink: func(*catalog.Table, sql.Option) (connector.TableSink, error) { return nil, nil }}
	src := "CREATE TABLE t (a INT, d STRING) PARTITIONED BY (d) WITH ('connector' = 'flat-test')"
	stmts, err := sql.Parse(src)
	require.NoError(t, err)
	tbl, err := catalog.NewTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	conn, _ := tbl.Options.Lookup(connector.KeyConnector)
	_, err = c.PlanSink(tbl, conn)
	require.EqualError(t, err, "1:50: table t is PARTITIONED BY (d), but connector 'flat-test' does not write partitions (the connectors that do: 'print', 'blackhole', 'filesystem'), so table t cannot be a sink")
	for _, name := range []string{"print", "blackhole", "filesystem"} {
		c, _ := connector.Lookup(name)
		require.True(t, c.Partitioned, name)
	}
}
