package formats

import (
	"github.com/apache/arrow-go/v18/arrow"

	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/avro"
	"github.com/wsql/wsql/exec/format/avro/confluent"
	"github.com/wsql/wsql/exec/format/message"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// Avro is the 'avro' format and AvroConfluent 'avro-confluent': a
// message is one Avro record of the schema Flink derives from the
// columns (exec/format/avro), in avro-confluent after the Confluent wire
// format's header of a schema registry's id (exec/format/avro/confluent).
// The kafka connector reads and writes them, a message a row; a connector
// of lines does not.
const (
	Avro          = "avro"
	AvroConfluent = "avro-confluent"
)

func init() {
	connector.RegisterFormat(&connector.Format{Name: Avro, Rank: 30, Reads: true, Writes: true, Messages: true, Options: []connector.Option{
		{Key: "avro.encoding", Type: "binary | json", Default: "binary", Scope: connector.Both, Description: "Avro's binary encoding; json is refused"},
		{Key: "avro.timestamp_mapping.legacy", Type: "bool", Default: "true", Scope: connector.Both, Description: "TIMESTAMP as timestamp-millis/-micros (true) or local-timestamp-millis/-micros (false); TIMESTAMP_LTZ is timestamp-millis/-micros either way"},
		{Key: "avro.codec", Type: "string", Scope: connector.Sink, Description: "the compression of Avro container files, which Flink's filesystem connector writes; refused: a message is not compressed by the format"},
		{Key: "avro.ignore-parse-errors", Type: "bool", Default: "false", Scope: connector.Source, Description: "wsql's own: skip (and count) a message that is not a record of the schema instead of failing; Flink has no such option"},
	}, Decoding: messagesOnly, Writing: func(t *catalog.Table) (writer.Writing, error) { return nil, messagesOnlyErr(t) }, Message: avroCodec})

	connector.RegisterFormat(&connector.Format{Name: AvroConfluent, Rank: 31, Reads: true, Writes: true, Messages: true, Options: []connector.Option{
		{Key: "avro-confluent.url", Type: "string", Required: true, Scope: connector.Both, Description: "the schema registry's URL (several separated by ',')"},
		{Key: "avro-confluent.subject", Type: "string", Default: "<topic>-value or <topic>-key", Scope: connector.Sink, Description: "the subject a sink registers the table's schema under"},
		{Key: "avro-confluent.basic-auth.credentials-source", Type: "USER_INFO", Scope: connector.Both, Description: "where the registry's basic-auth user and password come from: USER_INFO ('avro-confluent.basic-auth.user-info'); URL and SASL_INHERIT are refused"},
		{Key: "avro-confluent.basic-auth.user-info", Type: "string", Scope: connector.Both, Description: "the registry's basic-auth user and password, 'user:password'"},
		{Key: "avro-confluent.bearer-auth.credentials-source", Type: "STATIC_TOKEN", Scope: connector.Both, Description: "where the registry's bearer token comes from: STATIC_TOKEN ('avro-confluent.bearer-auth.token'); others are refused"},
		{Key: "avro-confluent.bearer-auth.token", Type: "string", Scope: connector.Both, Description: "the registry's bearer token"},
		{Key: "avro-confluent.schema", Type: "string", Scope: connector.Both, Description: "a schema to register and use in place of the table's; refused: wsql registers the schema derived from the columns"},
		{Key: "avro-confluent.properties", Type: "map", Scope: connector.Both, Description: "properties for the registry's Java client; refused: the Go client takes none of them"},
		{Key: "avro-confluent.ssl.keystore.location", Type: "string", Scope: connector.Both, Description: "a Java keystore for TLS client authentication; refused"},
		{Key: "avro-confluent.ssl.keystore.password", Type: "string", Scope: connector.Both, Description: "its password; refused"},
		{Key: "avro-confluent.ssl.truststore.location", Type: "string", Scope: connector.Both, Description: "a Java truststore for the registry's certificate; refused (an https URL is checked against the system's certificates)"},
		{Key: "avro-confluent.ssl.truststore.password", Type: "string", Scope: connector.Both, Description: "its password; refused"},
		{Key: "avro-confluent.timestamp_mapping.legacy", Type: "bool", Default: "true", Scope: connector.Both, Description: "as 'avro.timestamp_mapping.legacy'"},
		{Key: "avro-confluent.ignore-parse-errors", Type: "bool", Default: "false", Scope: connector.Source, Description: "wsql's own: skip (and count) a message that cannot be read (not in the wire format, an unknown schema id, a record that does not fit) instead of failing"},
	}, Decoding: messagesOnly, Writing: func(t *catalog.Table) (writer.Writing, error) { return nil, messagesOnlyErr(t) }, Message: avroConfluentCodec})
}

func messagesOnly(t *catalog.Table) (format.Decoding, error) { return nil, messagesOnlyErr(t) }

func messagesOnlyErr(t *catalog.Table) error {
	o, _ := t.Options.Lookup(connector.KeyFormat)
	return sql.Errorf(sql.ErrUnsupported, o.At, "format '%s' is read and written by the kafka connector only yet, a message a record, not by this table's connector (Avro container files are not read or written yet)", o.Value)
}

// IgnoresBadMessages reports whether a part in a format of messages
// skips the messages it cannot read ('<format>.ignore-parse-errors').
func IgnoresBadMessages(t *catalog.Table, name string) (bool, error) {
	if o, ok := t.Options.Lookup(name + ".ignore-parse-errors"); ok {
		return connector.Bool(o)
	}
	return false, nil
}

func avroCodec(t *catalog.Table, _, _ string) (message.Codec, error) {
	c := avro.Codec{LegacyTimestamps: true}
	for _, o := range t.Options {
		var err error
		switch o.Key {
		case "avro.encoding":
			if !strings.EqualFold(o.Value, "binary") {
				err = sql.Errorf(sql.ErrUnsupported, o.At, "option 'avro.encoding' = '%s' is not supported: wsql reads and writes Avro's binary encoding only", o.Value)
			}
		case "avro.timestamp_mapping.legacy":
			c.LegacyTimestamps, err = connector.Bool(o)
		case "avro.codec":
			err = sql.Errorf(sql.ErrUnsupported, o.At, "option 'avro.codec' compresses Avro container files, which wsql does not write: a Kafka message is compressed by 'properties.compression.type'")
		case "avro.ignore-parse-errors":
			_, err = connector.Bool(o)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := avroColumns(t, c.LegacyTimestamps); err != nil {
		return nil, err
	}
	return c, nil
}

func avroConfluentCodec(t *catalog.Table, part, topic string) (message.Codec, error) {
	o := confluent.Options{Subject: topic + "-" + part, LegacyTimestamps: true}
	var userInfo, token *sql.Option
	url, hasURL := t.Options.Lookup("avro-confluent.url")
	for _, opt := range t.Options {
		var err error
		switch opt.Key {
		case "avro-confluent.url":
			o.URL = opt.Value
		case "avro-confluent.subject":
			o.Subject = opt.Value
		case "avro-confluent.basic-auth.credentials-source":
			if !strings.EqualFold(opt.Value, "USER_INFO") {
				err = sql.Errorf(sql.ErrUnsupported, opt.At, "option '%s' = '%s' is not supported: give the user and password in 'avro-confluent.basic-auth.user-info' (USER_INFO)", opt.Key, opt.Value)
			}
		case "avro-confluent.basic-auth.user-info":
			userInfo = &opt
			user, pass, ok := strings.Cut(opt.Value, ":")
			if !ok {
				err = sql.Errorf(sql.ErrInvalid, opt.At, "option '%s' must be 'user:password'", opt.Key)
			}
			o.User, o.Password = user, pass
		case "avro-confluent.bearer-auth.credentials-source":
			if !strings.EqualFold(opt.Value, "STATIC_TOKEN") {
				err = sql.Errorf(sql.ErrUnsupported, opt.At, "option '%s' = '%s' is not supported: give the token in 'avro-confluent.bearer-auth.token' (STATIC_TOKEN)", opt.Key, opt.Value)
			}
		case "avro-confluent.bearer-auth.token":
			token = &opt
			o.Token = opt.Value
		case "avro-confluent.schema":
			err = sql.Errorf(sql.ErrUnsupported, opt.At, "option '%s' is not supported yet: wsql registers and reads with the schema derived from the table's columns", opt.Key)
		case "avro-confluent.properties":
			err = sql.Errorf(sql.ErrUnsupported, opt.At, "option '%s' is not supported: it configures the registry's Java client; wsql's registry client takes the URL and the auth options only", opt.Key)
		case "avro-confluent.ssl.keystore.location", "avro-confluent.ssl.keystore.password", "avro-confluent.ssl.truststore.location", "avro-confluent.ssl.truststore.password":
			err = sql.Errorf(sql.ErrUnsupported, opt.At, "option '%s' is not supported: Java keystores are not read; an https registry URL is checked against the system's certificates", opt.Key)
		case "avro-confluent.timestamp_mapping.legacy":
			o.LegacyTimestamps, err = connector.Bool(opt)
		case "avro-confluent.ignore-parse-errors":
			_, err = connector.Bool(opt)
		}
		if err != nil {
			return nil, err
		}
	}
	if !hasURL || strings.TrimSpace(url.Value) == "" {
		f, _ := t.Options.Lookup(connector.KeyFormat)
		return nil, sql.Errorf(sql.ErrInvalid, f.At, "format 'avro-confluent' needs 'avro-confluent.url': the schema registry's URL")
	}
	if userInfo != nil && token != nil {
		return nil, sql.Errorf(sql.ErrInvalid, token.At, "give the registry's basic auth ('avro-confluent.basic-auth.user-info') or its bearer token, not both")
	}
	if err := avroColumns(t, o.LegacyTimestamps); err != nil {
		return nil, err
	}
	c, err := confluent.New(o)
	if err != nil {
		return nil, sql.Errorf(sql.ErrInvalid, url.At, "%v", err)
	}
	return c, nil
}

// avroColumns refuses, at the column, a type Avro cannot hold.
func avroColumns(t *catalog.Table, legacy bool) error {
	for _, c := range t.Columns {
		if c.Computed != nil || c.Metadata != "" {
			continue
		}
		if _, err := avro.Schema([]arrow.Field{c.Field()}, legacy); err != nil {
			return sql.Errorf(sql.ErrUnsupported, c.At, "%v", err)
		}
	}
	return nil
}
