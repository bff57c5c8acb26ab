package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// clientProps are the 'properties.*' options other than the bootstrap
// servers and the group: Kafka's client settings, which wsql passes to
// franz-go where it has them. A property franz-go has no setting for is
// refused by name, so a table never runs with a setting silently dropped.
type clientProps struct {
	clientID        string
	securityProto   string // PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL
	saslMechanism   string // PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
	user, password  string // from sasl.jaas.config; never printed
	caFile          string // ssl.ca.location: PEM certificates to trust
	noHostCheck     bool   // ssl.endpoint.identification.algorithm = ''
	readCommitted   bool   // isolation.level = read_committed
	autoOffsetReset string // earliest, latest or none: group-offsets without a commit
	// a scaled-out read's membership of its group (zero: franz-go's
	// defaults, 45 s and 3 s)
	sessionTimeout, heartbeat time.Duration
	// the most bytes a fetch brings, of each partition and in all
	// (zero: defaultPartitionFetchBytes, franz-go's 50 MiB)
	partitionFetchBytes, fetchBytes int32
}

// defaultPartitionFetchBytes is the most bytes of a partition a fetch
// brings unless 'max.partition.fetch.bytes' says otherwise: a quarter of
// Kafka's 1 MiB. A fetch is decompressed whole before it is read, and
// with 1 MiB of each of four snappy-compressed partitions it came to
// tens of MiB of records and buffers, out of the CPU's caches by the
// time they were decoded: a JSON read went from 1.9M to 2.5M events per
// CPU-second with a quarter (BenchmarkKafkaTumbleJSON, docs/performance.md).
const defaultPartitionFetchBytes = 256 << 10

// passedProperties are the Kafka client properties wsql takes, with what
// each sets.
var passedProperties = map[string]string{
	"client.id":                             "the client id the brokers see",
	"security.protocol":                     "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
	"sasl.mechanism":                        "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512",
	"sasl.jaas.config":                      "the login module's username=\"...\" password=\"...\"",
	"ssl.ca.location":                       "a PEM file of the certificates to trust (else the system's)",
	"ssl.endpoint.identification.algorithm": "'' to skip checking the broker's host name",
	"isolation.level":                       "read_committed or read_uncommitted (the default)",
	"session.timeout.ms":                    "a scaled-out read: how long the group waits for a silent instance before it gives its partitions to others",
	"heartbeat.interval.ms":                 "a scaled-out read: how often an instance tells the group it is alive",
	"max.partition.fetch.bytes":             "the most bytes of a partition a fetch brings (256 KiB; at least one batch)",
	"fetch.max.bytes":                       "the most bytes a fetch brings of all its partitions (50 MiB; at least one batch)",
	"auto.offset.reset":                     "where 'group-offsets' starts a partition without a committed offset: earliest, latest or none (the default: an error)",
}

var jaasField = regexp.MustCompile(`(username|password)\s*=\s*"((?:[^"\\]|\\.)*)"`)

func readClientProps(t *catalog.Table) (clientProps, error) {
	p := clientProps{securityProto: "PLAINTEXT", autoOffsetReset: "none"}
	var mechanismAt, jaasAt *sql.Option
	for _, o := range t.Options {
		name, ok := strings.CutPrefix(o.Key, propertiesPrefix)
		if !ok || o.Key == keyBootstrap || o.Key == keyGroupID {
			continue
		}
		if _, known := passedProperties[name]; !known {
			names := make([]string, 0, len(passedProperties))
			for n := range passedProperties {
				names = append(names, n)
			}
			sort.Strings(names)
			return p, sql.Errorf(sql.ErrUnsupported, o.At, "Kafka property '%s' is not supported: wsql passes %s to its client%s",
				name, strings.Join(names, ", "), sql.DidYouMean(name, names))
		}
		switch name {
		case "client.id":
			p.clientID = o.Value
		case "security.protocol":
			v := strings.ToUpper(o.Value)
			if v != "PLAINTEXT" && v != "SSL" && v != "SASL_PLAINTEXT" && v != "SASL_SSL" {
				return p, sql.Errorf(sql.ErrInvalid, o.At, "property 'security.protocol' must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, got '%s'", o.Value)
			}
			p.securityProto = v
		case "sasl.mechanism":
			v := strings.ToUpper(o.Value)
			if v != "PLAIN" && v != "SCRAM-SHA-256" && v != "SCRAM-SHA-512" {
				return p, sql.Errorf(sql.ErrUnsupported, o.At, "property 'sasl.mechanism' must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, got '%s'", o.Value)
			}
			p.saslMechanism, mechanismAt = v, &o
		case "sasl.jaas.config":
			for _, m := range jaasField.FindAllStringSubmatch(o.Value, -1) {
				v := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
				if m[1] == "username" {
					p.user = v
				} else {
					p.password = v
				}
			}
			if p.user == "" {
				return p, sql.Errorf(sql.ErrInvalid, o.At, "property 'sasl.jaas.config' must give username=\"...\" and password=\"...\"")
			}
			jaasAt = &o
		case "ssl.ca.location":
			p.caFile = o.Value
		case "ssl.endpoint.identification.algorithm":
			p.noHostCheck = o.Value == ""
		case "isolation.level":
			switch o.Value {
			case "read_committed":
				p.readCommitted = true
			case "read_uncommitted":
			default:
				return p, sql.Errorf(sql.ErrInvalid, o.At, "property 'isolation.level' must be read_committed or read_uncommitted, got '%s'", o.Value)
			}
		case "auto.offset.reset":
			if o.Value != "earliest" && o.Value != "latest" && o.Value != "none" {
				return p, sql.Errorf(sql.ErrInvalid, o.At, "property 'auto.offset.reset' must be earliest, latest or none, got '%s'", o.Value)
			}
			p.autoOffsetReset = o.Value
		case "max.partition.fetch.bytes", "fetch.max.bytes":
			n, err := strconv.ParseInt(o.Value, 10, 32)
			if err != nil || n <= 0 {
				return p, sql.Errorf(sql.ErrInvalid, o.At, "property '%s' must be a number of bytes above 0, got '%s'", name, o.Value)
			}
			if name == "fetch.max.bytes" {
				p.fetchBytes = int32(n)
			} else {
				p.partitionFetchBytes = int32(n)
			}
		case "session.timeout.ms", "heartbeat.interval.ms":
			ms, err := strconv.ParseInt(o.Value, 10, 32)
			if err != nil || ms <= 0 {
				return p, sql.Errorf(sql.ErrInvalid, o.At, "property '%s' must be a number of milliseconds above 0, got '%s'", name, o.Value)
			}
			if name == "session.timeout.ms" {
				p.sessionTimeout = time.Duration(ms) * time.Millisecond
			} else {
				p.heartbeat = time.Duration(ms) * time.Millisecond
			}
		}
	}
	sasl := strings.HasPrefix(p.securityProto, "SASL")
	switch {
	case sasl && jaasAt == nil:
		return p, sql.Errorf(sql.ErrInvalid, t.At, "table %s uses security.protocol %s but gives no 'properties.sasl.jaas.config' with the username and password", t.Name, p.securityProto)
	case !sasl && (mechanismAt != nil || jaasAt != nil):
		at := jaasAt
		if at == nil {
			at = mechanismAt
		}
		return p, sql.Errorf(sql.ErrInvalid, at.At, "SASL options need 'properties.security.protocol' SASL_PLAINTEXT or SASL_SSL")
	case sasl && p.saslMechanism == "":
		p.saslMechanism = "PLAIN" // Kafka's default
	}
	return p, nil
}

// fetchOpts are the franz-go options of a client that reads records.
func (c *config) fetchOpts() []kgo.Opt {
	opts := []kgo.Opt{kgo.FetchMaxPartitionBytes(defaultPartitionFetchBytes)}
	if n := c.client.partitionFetchBytes; n > 0 {
		opts[0] = kgo.FetchMaxPartitionBytes(n)
	}
	if n := c.client.fetchBytes; n > 0 {
		opts = append(opts, kgo.FetchMaxBytes(n))
	}
	return opts
}

// clientOpts are the franz-go options of the connection the table's
// options describe.
func (c *config) clientOpts() ([]kgo.Opt, error) {
	opts := []kgo.Opt{kgo.SeedBrokers(c.brokers...), kgo.RetryTimeout(30 * time.Second)}
	p := c.client
	if p.clientID != "" {
		opts = append(opts, kgo.ClientID(p.clientID))
	}
	if p.securityProto == "SSL" || p.securityProto == "SASL_SSL" {
		tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: p.noHostCheck}
		if p.caFile != "" {
			pem, err := os.ReadFile(p.caFile)
			if err != nil {
				return nil, fmt.Errorf("table %s: ssl.ca.location: %w", c.table, err)
			}
			tc.RootCAs = x509.NewCertPool()
			if !tc.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("table %s: ssl.ca.location %s holds no PEM certificate", c.table, p.caFile)
			}
		}
		opts = append(opts, kgo.Dialer((&tls.Dialer{NetDialer: &net.Dialer{Timeout: 10 * time.Second}, Config: tc}).DialContext))
	}
	switch p.saslMechanism {
	case "PLAIN":
		opts = append(opts, kgo.SASL(plain.Auth{User: p.user, Pass: p.password}.AsMechanism()))
	case "SCRAM-SHA-256":
		opts = append(opts, kgo.SASL(scram.Auth{User: p.user, Pass: p.password}.AsSha256Mechanism()))
	case "SCRAM-SHA-512":
		opts = append(opts, kgo.SASL(scram.Auth{User: p.user, Pass: p.password}.AsSha512Mechanism()))
	}
	return opts, nil
}
