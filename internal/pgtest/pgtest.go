// Package pgtest starts a throwaway PostgreSQL server for tests: a fresh
// data directory under the system's temporary directory, a free port on
// the loopback address and a Unix socket in that directory, settings for
// speed (no fsync) and for the change-data-capture work that reads the
// write-ahead log (wal_level = logical, replication slots and WAL
// senders, prepared transactions for exactly-once sinks). The server is
// stopped (pg_ctl stop -m immediate) and its directory removed when the
// test ends, failed or not.
//
// PostgreSQL refuses to run as root: under root the server and initdb run
// as the postgres system user, on a directory that user owns.
//
// The binaries are Debian's (/usr/lib/postgresql/VERSION/bin, the newest
// version installed), or those of the directory WSQL_PG_BIN names. A test
// that needs the server fails, with what to install, when it cannot start
// one; under -short Start skips the test instead.
package pgtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Server is a running throwaway PostgreSQL server.
type Server struct {
	dir    string // the temporary directory: data/, the socket, the log
	bin    string // the directory of pg_ctl and initdb
	asUser bool   // run the binaries as the postgres user (under root)
	Port   int
	// Database is the fresh database Start made for the test.
	Database string
	dbs      atomic.Int64
}

// Superuser is the server's superuser, trusted without a password on the
// loopback address and the socket.
const Superuser = "postgres"

// Start starts a server for the test and makes a fresh database on it;
// both go when the test ends. It fails the test, naming what to install,
// when no server can start.
func Start(t testing.TB) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a PostgreSQL server, which -short does not start")
	}
	bin, err := binDir()
	if err != nil {
		t.Fatalf("this test needs a PostgreSQL server: %v", err)
	}
	s := &Server{bin: bin, asUser: os.Geteuid() == 0}
	parent := ""
	if s.asUser {
		parent = "/tmp" // TMPDIR may be a directory the postgres user cannot enter
	}
	if s.dir, err = os.MkdirTemp(parent, "pgtest-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	if err := s.own(); err != nil {
		t.Fatalf("this test needs a PostgreSQL server: %v", err)
	}
	if err := s.start(); err != nil {
		t.Fatalf("this test needs a PostgreSQL server, which did not start: %v\n%s", err, s.log())
	}
	s.Database = s.NewDatabase(t)
	return s
}

// binDir finds the directory of pg_ctl and initdb.
func binDir() (string, error) {
	if d := os.Getenv("WSQL_PG_BIN"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err != nil {
			return "", fmt.Errorf("WSQL_PG_BIN names %s, which has no pg_ctl: install Debian's postgresql package (apt-get install postgresql), or name the directory of pg_ctl and initdb", d)
		}
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("no pg_ctl found: install Debian's postgresql package (apt-get install postgresql), or name the directory of pg_ctl and initdb in WSQL_PG_BIN")
}

// version is the major version of a /usr/lib/postgresql/VERSION/bin.
func version(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

// own gives the directory to the postgres user when the binaries run as
// it.
func (s *Server) own() error {
	if !s.asUser {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root, the server runs as the postgres user, but there is none: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chmod(s.dir, 0o700); err != nil {
		return err
	}
	return os.Chown(s.dir, uid, gid)
}

// command runs one of the server's binaries, as the postgres user under
// root.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	path := filepath.Join(s.bin, name)
	if s.asUser {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

func run(cmd *exec.Cmd) error {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out.String())
	}
	return nil
}

// settings are the server's: fast and throwaway, with what logical
// decoding and two-phase commit need.
var settings = []string{
	"fsync = off",
	"synchronous_commit = off",
	"full_page_writes = off",
	"wal_level = logical",
	"max_replication_slots = 10",
	"max_wal_senders = 10",
	"max_prepared_transactions = 20",
	"max_connections = 100",
	"shared_buffers = 128MB",
	"log_min_messages = warning",
}

func (s *Server) start() error {
	data := filepath.Join(s.dir, "data")
	if err := run(s.command("initdb", "-D", data, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")); err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		port, err := freePort()
		if err != nil {
			return err
		}
		conf := append(slices.Clone(settings), "listen_addresses = '127.0.0.1'", fmt.Sprintf("port = %d", port),
			fmt.Sprintf("unix_socket_directories = '%s'", s.dir))
		f, err := os.OpenFile(filepath.Join(data, "postgresql.auto.conf"), os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return err
		}
		_, err = f.WriteString(strings.Join(conf, "\n") + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		err = run(s.command("pg_ctl", "-D", data, "-l", filepath.Join(s.dir, "server.log"), "-w", "-t", "60", "start"))
		if err == nil {
			s.Port = port
			return nil
		}
		if attempt == 2 { // another process may have taken the port
			return err
		}
	}
}

// freePort is a TCP port of the loopback address no one listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// log is the end of the server's log, for a failure.
func (s *Server) log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// stop ends the server at once and removes its directory.
func (s *Server) stop() {
	data := filepath.Join(s.dir, "data")
	if _, err := os.Stat(filepath.Join(data, "postmaster.pid")); err == nil {
		_ = run(s.command("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"))
	}
	_ = os.RemoveAll(s.dir)
}

// ConnString is a pgx connection string (a postgres:// URL) of database
// db as the superuser, over TCP.
func (s *Server) ConnString(db string) string {
	u := url.URL{Scheme: "postgres", User: url.User(Superuser), Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// URL is the connection string of the test's database.
func (s *Server) URL() string { return s.ConnString(s.Database) }

// JDBCURL is the JDBC form of the test's database's address, as Flink's
// jdbc connector takes it: jdbc:postgresql://host:port/db?user=postgres.
func (s *Server) JDBCURL() string { return s.JDBCURLOf(s.Database) }

// JDBCURLOf is the JDBC form of database db's address.
func (s *Server) JDBCURLOf(db string) string {
	return fmt.Sprintf("jdbc:postgresql://127.0.0.1:%d/%s?user=%s&sslmode=disable", s.Port, db, Superuser)
}

// SocketDir is the directory of the server's Unix socket.
func (s *Server) SocketDir() string { return s.dir }

// NewDatabase makes another fresh database and returns its name.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("test%d", s.dbs.Add(1))
	s.Exec(t, "postgres", "CREATE DATABASE "+name)
	return name
}

// Connect opens a connection to database db, closed when the test ends.
func (s *Server) Connect(t testing.TB, db string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := s.connectFor(ctx, t, db)
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// connectFor opens a connection to database db, failing the test when
// it cannot; the caller closes it.
func (s *Server) connectFor(ctx context.Context, t testing.TB, db string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(ctx, s.ConnString(db))
	if err != nil {
		t.Fatalf("connecting to the test server: %v", err)
	}
	return c
}

// Exec runs statements in database db, failing the test on an error.
func (s *Server) Exec(t testing.TB, db, statements string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := s.connectFor(ctx, t, db)
	defer c.Close(context.Background())
	if _, err := c.Exec(ctx, statements); err != nil {
		t.Fatalf("%s: %v", statements, err)
	}
}

// Query runs a query in the test's database and returns its rows as
// text, a line each with the columns separated by commas (NULL for a
// null), in the order the query gives.
func (s *Server) Query(t testing.TB, query string) []string {
	t.Helper()
	return s.QueryIn(t, s.Database, query)
}

// QueryIn is Query in database db.
func (s *Server) QueryIn(t testing.TB, db, query string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := s.connectFor(ctx, t, db)
	defer c.Close(context.Background())
	rows, err := c.Query(ctx, query, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := rows.RawValues()
		fields := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				fields[i] = "NULL"
			} else {
				fields[i] = string(v)
			}
		}
		out = append(out, strings.Join(fields, ","))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// RequirePassword makes the server ask role for its password on the
// loopback address (scram-sha-256), where every other role is trusted.
func (s *Server) RequirePassword(role string) error {
	path := filepath.Join(s.dir, "data", "pg_hba.conf")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	rule := fmt.Sprintf("host all %s 127.0.0.1/32 scram-sha-256\n", role)
	if err := os.WriteFile(path, append([]byte(rule), b...), 0o600); err != nil {
		return err
	}
	return run(s.command("pg_ctl", "-D", filepath.Join(s.dir, "data"), "reload"))
}

// Psql runs psql's command (-c) in database db as the superuser and
// returns what psql prints, as a reader of a guide sees it.
func (s *Server) Psql(t testing.TB, db, command string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(s.bin, "psql"), "-X", "-h", "127.0.0.1", "-p", strconv.Itoa(s.Port), "-U", Superuser, "-d", db, "-c", command)
	cmd.Env = append(os.Environ(), "PGTZ=UTC", "LC_ALL=C.UTF-8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql -c %q: %v\n%s", command, err, out)
	}
	return string(out)
}
