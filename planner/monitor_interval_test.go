package planner

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/sql"
)

func TestMonitorIntervalMakesTheSourceUnbounded(t *testing.T) {
	dir := t.TempDir()
	ddl := `CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
		WITH ('connector' = 'filesystem', 'path' = '` + dir + `', 'format' = 'csv', 'source.monitor-interval' = '1 s')`
	p, err := planTable(t, ddl, "SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.NoError(t, err)
	require.Equal(t, time.Second, p.Source.(*textsource.Source).MonitorInterval)
	require.Contains(t, p.Explain(), "splits=[0], monitor-interval=[1 s], unbounded, fields=[ts, k]")

	ddl = `CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
		WITH ('connector' = 'filesystem', 'path' = '` + dir + `', 'format' = 'csv')`
	p, err = planTable(t, ddl, "SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.NoError(t, err)
	require.Zero(t, p.Source.(*textsource.Source).MonitorInterval)
	require.NotContains(t, p.Explain(), "monitor-interval")
	require.NotContains(t, p.Explain(), "unbounded")
}

func TestMonitorIntervalMustBeAPositiveDuration(t *testing.T) {
	for _, v := range []string{"", "soon", "0", "0 s", "-1 s", "1.5 s"} {
		ddl := `CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'x.csv', 'format' = 'csv',
 'source.monitor-interval' = '` + v + `')`
		_, err := planTable(t, ddl, "SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")
		require.ErrorIs(t, err, sql.ErrInvalid, "value %q", v)
		var e *sql.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, 3, e.Pos.Line, "value %q: the error points at the option", v)
		require.Contains(t, err.Error(), "source.monitor-interval")
	}
	// a misspelt key gets a suggestion
	ddl := `CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'x.csv', 'format' = 'csv',
 'source.monitor-intervall' = '1 s')`
	_, err := planTable(t, ddl, "SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.ErrorContains(t, err, "source.monitor-interval")
}
