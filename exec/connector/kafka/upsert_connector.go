package kafka

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// UpsertName is the identifier of the upsert-kafka connector: a topic as
// a changelog by the table's PRIMARY KEY, as Flink's. A record keyed by
// the key's columns holds a row's latest value, and a record without a
// value (a tombstone) deletes it; a topic compacted by Kafka keeps what a
// read needs.
const UpsertName = "upsert-kafka"

var upsertOptions = []connector.Option{
	connector.ConnectorOption,
	{Key: keyTopic, Type: "string", Required: true, Scope: connector.Both, Description: "the topic read or written"},
	{Key: keyBootstrap, Type: "string", Required: true, Scope: connector.Both, Description: "the brokers to connect to first, host:port separated by ','"},
	{Key: keyKeyFormat, Type: "json | csv | raw", Required: true, Scope: connector.Both, Description: "the format of the message key: the PRIMARY KEY's columns"},
	{Key: keyKeyFieldsPrefix, Type: "string", Scope: connector.Both, Description: "a prefix of the key columns' names that the key format does not see"},
	{Key: keyValueFormat, Type: "json | csv | raw", Required: true, Scope: connector.Both, Description: "the format of the message value; its options are prefixed 'value.'"},
	{Key: keyValueFieldsInc, Type: "ALL | EXCEPT_KEY", Default: "ALL", Scope: connector.Both, Description: "whether the value holds the key columns too"},
	{Key: keyBoundedMode, Type: "unbounded | latest-offset", Default: "unbounded", Scope: connector.Source, Description: "where the read ends: never, or at the end each partition had when the read started"},
	{Key: keyDiscovery, Type: "duration", Scope: connector.Source, Description: "an unbounded read looks for new partitions this often (default 5 min; 0 never)"},
	connector.IdleTimeoutOption,
	{Key: keyPartitioner, Type: "default | fixed | round-robin", Default: "default", Scope: connector.Sink, Description: "the partition of each record: by the key's hash (so a key's changes stay in order), all to partition 0, or in turn"},
}

func init() {
	connector.Register(&connector.Connector{Name: UpsertName, Rank: 41, SinkRank: 41, Options: upsertOptions, Metadata: metadata,
		NewSource: planUpsertSource, NewSink: planUpsertSink})
}

// upsertKey reads the PRIMARY KEY an upsert-kafka table needs, as the
// key's columns: 'key.fields' of the kafka connector.
func upsertKey(t *catalog.Table, conn sql.Option) ([]string, error) {
	if t.PrimaryKey == nil {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "an upsert-kafka table needs a PRIMARY KEY ... NOT ENFORCED: its columns are the message key; table %s has none", t.Name)
	}
	return t.PrimaryKey.Columns, nil
}

// checkUpsertKeys refuses an option upsert-kafka does not have.
func checkUpsertKeys(t *catalog.Table, formatKeys []string) error {
	known := append(connector.Keys(upsertOptions, connector.Both), formatKeys...)
	for _, o := range t.Options {
		if connector.Contains(known, o.Key) || len(o.Key) > len(propertiesPrefix) && o.Key[:len(propertiesPrefix)] == propertiesPrefix {
			continue
		}
		return connector.UnsupportedOption(o, UpsertName, known)
	}
	return nil
}
