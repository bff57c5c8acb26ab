package pgcdc

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// Name is the connector's identifier, as Flink CDC's.
const Name = "postgres-cdc"

// The connector's keys, as Flink CDC's PostgreSQL connector names them.
const (
	keyHostname     = "hostname"
	keyPort         = "port"
	keyUsername     = "username"
	keyPassword     = "password"
	keyDatabase     = "database-name"
	keySchema       = "schema-name"
	keyTable        = "table-name"
	keySlot         = "slot.name"
	keyPlugin       = "decoding.plugin.name"
	keyStartup      = "scan.startup.mode"
	keyHeartbeat    = "heartbeat.interval.ms"
	keyPublication  = "debezium.publication.name"
	keySSLMode      = "debezium.database.sslmode"
	debeziumPrefix  = "debezium."
	pgoutput        = "pgoutput"
	modeInitial     = "initial"
	modeLatest      = "latest-offset"
	defaultPort     = 5432
	defaultSchema   = "public"
	defaultPub      = "dbz_publication"
	defaultInterval = 30 * time.Second
)

var options = []connector.Option{
	connector.ConnectorOption,
	{Key: keyHostname, Type: "string", Required: true, Scope: connector.Source, Description: "the PostgreSQL server's host name or address"},
	{Key: keyPort, Type: "int", Default: strconv.Itoa(defaultPort), Scope: connector.Source, Description: "the server's port"},
	{Key: keyUsername, Type: "string", Required: true, Scope: connector.Source, Description: "the user to connect as: one with the REPLICATION attribute that can read the table"},
	{Key: keyPassword, Type: "string", Scope: connector.Source, Description: "the user's password; never shown"},
	{Key: keyDatabase, Type: "string", Required: true, Scope: connector.Source, Description: "the database of the table"},
	{Key: keySchema, Type: "string", Default: defaultSchema, Scope: connector.Source, Description: "the schema of the table"},
	{Key: keyTable, Type: "string", Required: true, Scope: connector.Source, Description: "the table whose changes are read"},
	{Key: keySlot, Type: "string", Required: true, Scope: connector.Source, Description: "the logical replication slot, created when missing and kept for restarts"},
	{Key: keyPlugin, Type: "pgoutput", Default: pgoutput, Scope: connector.Source, Description: "the logical decoding plugin: PostgreSQL's own pgoutput only"},
	{Key: keyStartup, Type: "initial | latest-offset", Default: modeInitial, Scope: connector.Source, Description: "initial: the table's rows as a snapshot, then its changes; latest-offset: the changes only"},
	{Key: keyHeartbeat, Type: "int", Default: "30000", Scope: connector.Source, Description: "milliseconds between the status messages that tell the server how far the read is confirmed"},
	{Key: keyPublication, Type: "string", Default: defaultPub, Scope: connector.Source, Description: "the publication pgoutput reads, created for the table when missing"},
	{Key: keySSLMode, Type: "disable | prefer | require | verify-ca | verify-full", Default: "prefer", Scope: connector.Source, Description: "whether the connections use TLS"},
	connector.IdleTimeoutOption,
}

// The metadata keys, as Flink CDC's PostgreSQL connector offers them.
const (
	metaOpTS     = "op_ts"
	metaTable    = "table_name"
	metaSchema   = "schema_name"
	metaDatabase = "database_name"
)

// config is a table's connection, slot and read settings.
type config struct {
	conn        *pgconn.Config // a plain connection's; the replication one adds replication=database
	shown       string         // user@host:port/db, never the password
	password    string
	schema      string
	table       string
	slot        string
	publication string
	startup     string
	heartbeat   time.Duration
}

// qualified is the table's name as SQL statements write it.
func (c *config) qualified() string {
	return quoteIdent(c.schema) + "." + quoteIdent(c.table)
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// connValue quotes a value of a keyword/value connection string.
func connValue(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// readConfig reads and checks the options of table t.
func readConfig(t *catalog.Table, conn sql.Option) (*config, error) {
	allowed := connector.Keys(options, connector.Source)
	c := &config{schema: defaultSchema, publication: defaultPub, startup: modeInitial, heartbeat: defaultInterval}
	host, user, db, sslmode, port := "", "", "", "prefer", defaultPort
	for _, o := range t.Options {
		var err error
		v := strings.TrimSpace(o.Value)
		switch o.Key {
		case connector.KeyConnector, connector.KeyIdleTimeout:
		case keyHostname:
			host = v
		case keyPort:
			var n int64
			if n, err = connector.Int(o); err == nil && (n < 1 || n > 65535) {
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a port between 1 and 65535, not %d", o.Key, n)
			}
			port = int(n)
		case keyUsername:
			user = v
		case keyPassword:
			c.password = o.Value
		case keyDatabase:
			db = v
		case keySchema:
			c.schema = v
		case keyTable:
			c.table = v
		case keySlot:
			c.slot = v
			err = checkSlotName(o)
		case keyPlugin:
			if v != pgoutput {
				err = sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' = '%s' is not supported: postgres-cdc decodes with PostgreSQL's own plugin only ('%s'), which needs no extension on the server", o.Key, o.Value, pgoutput)
			}
		case keyStartup:
			if v != modeInitial && v != modeLatest {
				err = sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' = '%s' is not supported: use '%s' (a snapshot of the table, then its changes) or '%s' (the changes only)", o.Key, o.Value, modeInitial, modeLatest)
			}
			c.startup = v
		case keyHeartbeat:
			var n int64
			if n, err = connector.Int(o); err == nil && n <= 0 {
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a positive number of milliseconds, not %d", o.Key, n)
			}
			c.heartbeat = time.Duration(n) * time.Millisecond
		case keyPublication:
			c.publication = v
			if v == "" {
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must name a publication", o.Key)
			}
		case keySSLMode:
			switch v {
			case "disable", "prefer", "require", "verify-ca", "verify-full":
				sslmode = v
			default:
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be disable, prefer, require, verify-ca or verify-full, not '%s'", o.Key, o.Value)
			}
		default:
			if strings.HasPrefix(o.Key, debeziumPrefix) {
				return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' is not supported: postgres-cdc reads the write-ahead log itself, without Debezium; of the 'debezium.' options it takes '%s' and '%s'", o.Key, keyPublication, keySSLMode)
			}
			return nil, connector.UnsupportedOption(o, Name, allowed)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, need := range []struct{ key, v string }{{keyHostname, host}, {keyUsername, user}, {keyDatabase, db}, {keyTable, c.table}, {keySlot, c.slot}} {
		if need.v == "" {
			return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs option '%s' for connector '%s'", t.Name, need.key, Name)
		}
	}
	cfg, err := pgconn.ParseConfig(fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=%s", connValue(host), port, connValue(user), connValue(db), sslmode))
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s: the options do not make a PostgreSQL address: %v", t.Name, err)
	}
	cfg.Password = c.password
	// timestamptz values are printed in UTC, and dates in ISO form, by
	// both the snapshot's connection and the replication stream
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["DateStyle"] = "ISO, YMD"
	cfg.RuntimeParams["application_name"] = "wsql postgres-cdc"
	c.conn = cfg
	c.shown = fmt.Sprintf("%s@%s:%d/%s", user, host, port, db)
	return c, nil
}

// checkSlotName refuses a slot name PostgreSQL refuses: lower-case
// letters, digits and underscores, at most 63.
func checkSlotName(o sql.Option) error {
	v := o.Value
	ok := v != "" && len(v) <= 63
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			ok = false
		}
	}
	if !ok {
		return sql.Errorf(sql.ErrInvalid, o.At, "option '%s' = '%s' is not a replication slot name: PostgreSQL's have lower-case letters, digits and underscores only, at most 63", o.Key, o.Value)
	}
	return nil
}

// redact cuts the password out of a message.
func (c *config) redact(msg string) string {
	if c.password == "" {
		return msg
	}
	return strings.ReplaceAll(msg, c.password, "******")
}
