package driver_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// database/sql runs a statement set with Exec, and the SQL client's form
// over several Exec calls of one DB (one Engine, one session): the sinks
// hold what each INSERT gives.
func TestDriverStatementSet(t *testing.T) {
	db, _ := driverDB(t)
	in := writeDriverFile(t, "events.csv", "2024-01-01 00:00:01,a,1\n2024-01-01 00:00:02,b,2\n2024-01-01 00:00:03,a,3\n")
	dir := t.TempDir()
	_, err := db.Exec(`CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '` + in + `', 'format' = 'csv');
CREATE TABLE big (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '` + filepath.Join(dir, "big") + `', 'format' = 'csv');
CREATE TABLE small (k STRING, v INT) WITH ('connector' = 'filesystem', 'path' = '` + filepath.Join(dir, "small") + `', 'format' = 'csv');`)
	require.NoError(t, err)
	read := func(table string) string {
		rows, err := db.Query("SELECT k, v FROM " + table)
		require.NoError(t, err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var k string
			var v int
			require.NoError(t, rows.Scan(&k, &v))
			out = append(out, k+"="+string(rune('0'+v)))
		}
		require.NoError(t, rows.Err())
		return strings.Join(out, " ")
	}

	_, err = db.Exec(`EXECUTE STATEMENT SET BEGIN
  INSERT INTO big SELECT k, v FROM events WHERE v > 1;
  INSERT INTO small SELECT k, v FROM events WHERE v <= 1;
END;`)
	require.NoError(t, err)
	require.Equal(t, "b=2 a=3", read("big"))
	require.Equal(t, "a=1", read("small"))

	for _, stmt := range []string{"BEGIN STATEMENT SET", "INSERT INTO small SELECT k, v FROM events WHERE k = 'b'", "INSERT INTO big SELECT k, v FROM events WHERE k = 'a'", "END"} {
		_, err := db.Exec(stmt)
		require.NoError(t, err, stmt)
	}
	require.Equal(t, "a=1 a=3", read("big"))
	require.Equal(t, "b=2", read("small"))
}
