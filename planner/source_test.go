package planner

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/sql"
)

// planTable plans a query over one table declared by ddl.
func planTable(t *testing.T, ddl, query string) (*Plan, error) {
	t.Helper()
	stmts, err := sql.Parse(ddl + ";\n" + query)
	require.NoError(t, err)
	cat := catalog.New()
	_, err = cat.CreateTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	return PlanSelect(stmts[1].(*sql.Select), cat, Options{BatchSize: 7})
}

func TestDirectorySourceListsSplitsAtPlanTime(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.csv", "a.csv", ".hidden", "_SUCCESS"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	ddl := `CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
		WITH ('connector' = 'filesystem', 'path' = '` + dir + `', 'format' = 'csv', 'scan.watermark.idle-timeout' = '10s')`
	p, err := planTable(t, ddl, "SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")}, p.Source.(*textsource.Source).Splits)
	require.Equal(t, 10*time.Second, p.Source.Spec().IdleTimeout)
	require.Contains(t, p.Explain(), "splits=[2]")
	require.Contains(t, p.Explain(), "idle-timeout=[10 s]")
	require.Contains(t, p.Explain(), "min over the active splits")
}

func TestMissingPathIsOneSplit(t *testing.T) {
	_, err := plan(t, "SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.NoError(t, err, "the run, not the planner, reports a missing file")
	p, err := planTable(t, clicksDDL, "SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)")
	require.NoError(t, err)
	require.Nil(t, p.Source.(*textsource.Source).Splits)
	require.Contains(t, p.Explain(), "splits=[1]")
	require.NotContains(t, p.Explain(), "idle-timeout")
}

func TestIdleTimeoutMustBeADuration(t *testing.T) {
	for _, v := range []string{"", "soon", "5 parsecs", "-5 s", "1.5 s", "99999999999 d"} {
		ddl := `CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'x.csv', 'format' = 'csv',
 'scan.watermark.idle-timeout' = '` + v + `')`
		_, err := planTable(t, ddl, "SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")
		require.ErrorIs(t, err, sql.ErrInvalid, "value %q", v)
		var e *sql.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, 3, e.Pos.Line, "value %q: the error points at the option", v)
	}
}

func TestParseDurationAsFlinkDoes(t *testing.T) {
	for text, want := range map[string]time.Duration{
		"5 s":           5 * time.Second,
		"10s":           10 * time.Second,
		"1 min":         time.Minute,
		"2 minutes":     2 * time.Minute,
		"500 ms":        500 * time.Millisecond,
		"500":           500 * time.Millisecond, // no unit: milliseconds
		" 3 SECONDS ":   3 * time.Second,
		"1 h":           time.Hour,
		"2 days":        48 * time.Hour,
		"0":             0,
		"7 micros":      7 * time.Microsecond,
		"9 ns":          9,
		"1 millisecond": time.Millisecond,
	} {
		got, err := connector.ParseDuration(text)
		require.NoError(t, err, text)
		require.Equal(t, want, got, text)
	}
	for _, text := range []string{"", "s", "1 m", "1.5 s", "-1 s", "1 fortnight", "99999999999999999999"} {
		_, err := connector.ParseDuration(text)
		require.Error(t, err, text)
	}
}
