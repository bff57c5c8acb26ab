package jdbc

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// Name is the connector's identifier.
const Name = "jdbc"

// The connector's keys, as Flink's JDBC connector names them.
const (
	keyURL        = "url"
	keyTable      = "table-name"
	keyDriver     = "driver"
	keyUsername   = "username"
	keyPassword   = "password"
	keyMaxRows    = "sink.buffer-flush.max-rows"
	keyInterval   = "sink.buffer-flush.interval"
	keyMaxRetries = "sink.max-retries"
	keyParallel   = "sink.parallelism"
)

// Defaults. Flink flushes every 100 rows; a flush here is one COPY or
// one statement whatever its size, so it takes more rows at a time: an
// append table's COPY has a fixed cost of about 2 ms (measured, see
// docs/performance.md), so it flushes 20000 rows; an upsert table's
// statement is fastest at about 5000.
const (
	defaultMaxRows       = 5000
	defaultAppendMaxRows = 20000
	defaultInterval      = time.Second
	defaultMaxRetries    = 3
	postgresDriver       = "org.postgresql.Driver"
)

var options = append([]connector.Option{
	connector.ConnectorOption,
	{Key: keyURL, Type: "string", Required: true, Scope: connector.Both,
		Description: "the PostgreSQL server and database: 'jdbc:postgresql://host:port/db' or a pgx connection string"},
	{Key: keyTable, Type: "string", Required: true, Scope: connector.Both,
		Description: "the PostgreSQL table read or written, optionally schema.table"},
	{Key: keyDriver, Type: "string", Default: postgresDriver, Scope: connector.Both,
		Description: "the JDBC driver class: only PostgreSQL's"},
	{Key: keyUsername, Type: "string", Scope: connector.Both,
		Description: "the user to connect as (over one in the url)"},
	{Key: keyPassword, Type: "string", Scope: connector.Both,
		Description: "the user's password (over one in the url); never shown"},
	{Key: keyMaxRows, Type: "int", Default: strconv.Itoa(defaultAppendMaxRows) + " (append), " + strconv.Itoa(defaultMaxRows) + " (upsert)", Scope: connector.Sink,
		Description: "the rows buffered before a flush; 0: no limit"},
	{Key: keyInterval, Type: "duration", Default: "1 s", Scope: connector.Sink,
		Description: "the longest a buffered row waits for its flush; 0: no timed flush"},
	{Key: keyMaxRetries, Type: "int", Default: strconv.Itoa(defaultMaxRetries), Scope: connector.Sink,
		Description: "how often a flush that lost its connection is tried again"},
	{Key: keyParallel, Type: "int", Default: "1", Scope: connector.Sink,
		Description: "the connections an upsert table is written over, each key's changes on one of them"},
}, scanOptions...)

// config is a table's connection and flush settings.
type config struct {
	table      string // 'table-name', as written in SQL statements
	conn       *pgconn.Config
	shown      string // the address without the password, for messages
	password   string // "" when none; cut from every error
	maxRows    int
	interval   time.Duration
	maxRetries int
	lanes      int // 'sink.parallelism'
}

// readConfig reads and checks the options of table t.
func readConfig(t *catalog.Table) (*config, error) {
	allowed := connector.Keys(options, connector.Both)
	c := &config{maxRows: defaultMaxRows, interval: defaultInterval, maxRetries: defaultMaxRetries, lanes: 1}
	if t.PrimaryKey == nil {
		c.maxRows = defaultAppendMaxRows
	}
	var urlOpt sql.Option
	var user, password *sql.Option
	for i, o := range t.Options {
		var err error
		switch o.Key {
		case connector.KeyConnector:
		case keyURL:
			urlOpt = o
		case keyTable:
			c.table = strings.TrimSpace(o.Value)
			if c.table == "" {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must name a table", o.Key)
			}
		case keyDriver:
			if o.Value != postgresDriver {
				return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' = '%s' is not supported: the jdbc connector reads and writes PostgreSQL only ('%s')", o.Key, o.Value, postgresDriver)
			}
		case keyUsername:
			user = &t.Options[i]
		case keyPassword:
			password = &t.Options[i]
		case keyMaxRows:
			var n int64
			n, err = connector.NonNegativeInt(o)
			c.maxRows = int(n)
		case keyInterval:
			c.interval, err = connector.Duration(o)
		case keyMaxRetries:
			var n int64
			n, err = connector.NonNegativeInt(o)
			c.maxRetries = int(n)
		case keyParallel:
			c.lanes, err = readLanes(t, o)
		default:
			if hasKey(scanOptions, o.Key) {
				continue // readScan's (scan_options.go)
			}
			if !hasKey(lookupOptions, o.Key) {
				return nil, connector.UnsupportedOption(o, Name, allowed)
			}
			_, err = readLookupConfig(&catalog.Table{Options: catalog.Options{o}}) // lookup_options.go
		}
		if err != nil {
			return nil, err
		}
	}
	if urlOpt.Key == "" {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s needs option '%s': the PostgreSQL database, e.g. 'jdbc:postgresql://localhost:5432/mydb'", t.Name, keyURL)
	}
	if c.table == "" {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "table %s needs option '%s': the PostgreSQL table read or written", t.Name, keyTable)
	}
	connString, err := pgConnString(urlOpt)
	if err != nil {
		return nil, err
	}
	cfg, err := pgconn.ParseConfig(connString)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, urlOpt.At, "option '%s' is not a PostgreSQL address: %s", urlOpt.Key, redact(err.Error(), passwordOf(connString)))
	}
	if user != nil {
		cfg.User = user.Value
	}
	if password != nil {
		cfg.Password = password.Value
	}
	c.conn, c.password = cfg, cfg.Password
	c.shown = shownAddress(cfg)
	return c, nil
}

// pgConnString turns a JDBC url (jdbc:postgresql://host:port/db?user=u)
// into pgx's form; any other value is taken as pgx's connection string.
func pgConnString(o sql.Option) (string, error) {
	v := strings.TrimSpace(o.Value)
	rest, ok := strings.CutPrefix(v, "jdbc:")
	if !ok {
		return v, nil
	}
	rest, ok = strings.CutPrefix(rest, "postgresql:")
	if !ok {
		return "", sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' names a database other than PostgreSQL; the jdbc connector reads and writes PostgreSQL only ('jdbc:postgresql://host:port/db')", o.Key)
	}
	if !strings.HasPrefix(rest, "//") { // jdbc:postgresql:db is the local server's database db
		rest = "//localhost/" + rest
	}
	u, err := url.Parse("postgres:" + rest)
	if err != nil {
		return "", sql.Errorf(sql.ErrInvalid, o.At, "option '%s' is not a JDBC url like 'jdbc:postgresql://host:5432/db'", o.Key)
	}
	q := url.Values{}
	for k, vs := range u.Query() {
		v := vs[len(vs)-1]
		switch k {
		case "user", "password", "sslmode", "sslrootcert", "sslcert", "sslkey":
			q.Set(k, v)
		case "ssl":
			if v == "true" {
				q.Set("sslmode", "require")
			}
		case "connectTimeout":
			q.Set("connect_timeout", v)
		case "ApplicationName":
			q.Set("application_name", v)
		case "currentSchema":
			q.Set("search_path", v)
		default:
			return "", sql.Errorf(sql.ErrUnsupported, o.At, "option '%s': the JDBC property '%s' is not supported (supported: user, password, ssl, sslmode, sslrootcert, sslcert, sslkey, connectTimeout, ApplicationName, currentSchema)", o.Key, k)
		}
	}
	if u.Host == "" {
		u.Host = "localhost"
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// passwordOf is the password a connection string gives, for redact.
func passwordOf(connString string) string {
	if cfg, err := pgconn.ParseConfig(connString); err == nil {
		return cfg.Password
	}
	if u, err := url.Parse(connString); err == nil && u.User != nil {
		p, _ := u.User.Password()
		return p
	}
	return ""
}

// redact cuts password out of a message.
func redact(msg, password string) string {
	if password == "" {
		return msg
	}
	return strings.ReplaceAll(msg, password, "******")
}

// shownAddress is the database's address for messages: user, host, port
// and database, never the password.
func shownAddress(cfg *pgconn.Config) string {
	host := cfg.Host
	if !strings.HasPrefix(host, "/") {
		host += ":" + strconv.Itoa(int(cfg.Port))
	}
	return cfg.User + "@" + host + "/" + cfg.Database
}

// readLanes reads 'sink.parallelism': a positive number of connections,
// above 1 only for an upsert table (an append table's rows have no key
// to keep each one's order on one connection, and one COPY stream
// writes a million rows a second).
func readLanes(t *catalog.Table, o sql.Option) (int, error) {
	n, err := connector.Int(o)
	switch {
	case err != nil:
		return 0, err
	case n < 1 || n > 64:
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be between 1 and 64, not %d", o.Key, n)
	case n > 1 && t.PrimaryKey == nil:
		return 0, sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' above 1 is for a table with a PRIMARY KEY (upsert mode); an append table is written over one connection", o.Key)
	}
	return int(n), nil
}

// hasKey reports a key of opts: the scan's and the lookup's keys, which
// readConfig leaves to readScan and readLookupConfig.
func hasKey(opts []connector.Option, key string) bool {
	return slices.ContainsFunc(opts, func(o connector.Option) bool { return o.Key == key })
}
