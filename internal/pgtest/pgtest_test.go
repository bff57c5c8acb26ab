package pgtest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStartStop starts a server, checks its settings and databases, and
// checks that the cleanup stops it and removes its directory.
func TestStartStop(t *testing.T) {
	var s *Server
	t.Run("server", func(t *testing.T) {
		s = Start(t)
		require.Equal(t, []string{"logical"}, s.Query(t, "SHOW wal_level"))
		require.Equal(t, []string{"off"}, s.Query(t, "SHOW fsync"))
		require.Equal(t, []string{"20"}, s.Query(t, "SHOW max_prepared_transactions"))
		require.Equal(t, []string{"1,a", "2,NULL"}, s.Query(t, "SELECT * FROM (VALUES (1, 'a'), (2, NULL)) v ORDER BY 1"))
		other := s.NewDatabase(t)
		require.NotEqual(t, s.Database, other)
		s.Exec(t, other, "CREATE TABLE x (a int)")
		require.Empty(t, s.Query(t, "SELECT * FROM pg_tables WHERE tablename = 'x'"))
		_, err := os.Stat(filepath.Join(s.SocketDir(), ".s.PGSQL."+strconv.Itoa(s.Port)))
		require.NoError(t, err, "the Unix socket")
	})
	_, err := os.Stat(s.dir)
	require.True(t, os.IsNotExist(err), "the server's directory is removed: %v", err)
}

// TestNoServerSaysWhatToInstall: without PostgreSQL's binaries the
// helper's error names the package to install (Start fails the test with
// it rather than skipping).
func TestNoServerSaysWhatToInstall(t *testing.T) {
	t.Setenv("WSQL_PG_BIN", t.TempDir())
	_, err := binDir()
	require.ErrorContains(t, err, "has no pg_ctl: install Debian's postgresql package (apt-get install postgresql)")
}
