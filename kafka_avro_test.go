package wsql

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// A message the avro formats cannot read stops the query with its topic,
// partition, offset, column and byte; the options wsql cannot honour are
// refused at their position, and so is a type Avro has no mapping for.
func TestKafkaAvroErrors(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 1)
	k.Produce(t, "events", kafkatest.Record{Value: []byte{0x02, 0x06, 'a'}})
	table := func(columns, options string) string {
		return "CREATE TABLE t (" + columns + ") WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" + k.Brokers() +
			"', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', " + options + ");\nSELECT * FROM t;\n"
	}
	for _, c := range []struct{ columns, options, want string }{
		{"id BIGINT, name STRING", "'format' = 'avro'",
			"kafka topic events partition 0 offset 0 value:1:2 (column name): union branch -49 of 2 (at byte 2)"},
		{"id INT NOT NULL, name STRING", "'format' = 'avro'",
			"kafka topic events partition 0 offset 0 value:1:2 (column name): union branch 3 of 2 (at byte 1)"},
		{"id BIGINT, name STRING", "'format' = 'avro-confluent', 'avro-confluent.url' = 'http://127.0.0.1:1'",
			"kafka topic events partition 0 offset 0 value:1: a message of 3 bytes is shorter than the Confluent wire format's header (magic byte 0 and a 4-byte schema id)"},
		{"v STRING", "'format' = 'avro', 'avro.encoding' = 'json'", "option 'avro.encoding' = 'json' is not supported: wsql reads and writes Avro's binary encoding only"},
		{"v STRING", "'format' = 'avro', 'avro.codec' = 'snappy'", "option 'avro.codec' compresses Avro container files"},
		{"v STRING", "'format' = 'avro-confluent', 'avro-confluent.url' = 'http://r', 'avro-confluent.schema' = '\"string\"'", "option 'avro-confluent.schema' is not supported yet"},
		{"v STRING", "'format' = 'avro-confluent', 'avro-confluent.url' = 'http://r', 'avro-confluent.basic-auth.credentials-source' = 'URL'", "'avro-confluent.basic-auth.credentials-source' = 'URL' is not supported"},
		{"v STRING", "'format' = 'avro-confluent', 'avro-confluent.url' = 'http://r', 'avro-confluent.ssl.truststore.location' = '/x'", "Java keystores are not read"},
		{"v STRING", "'format' = 'avro-confluent', 'avro-confluent.url' = 'http://r', 'avro-confluent.basic-auth.user-info' = 'nocolon'", "option 'avro-confluent.basic-auth.user-info' must be 'user:password'"},
		{"v TIMESTAMP(9)", "'format' = 'avro'", "column v of type TIMESTAMP(9) cannot be read or written as Avro"},
		{"v INTERVAL DAY", "'format' = 'avro'", "cannot be read or written as Avro: Flink's avro format has no mapping for it"},
	} {
		out := runScript(t, table(c.columns, c.options), 4096)
		require.Contains(t, out, c.want, c.options)
		require.True(t, strings.Contains(out, "error: ") || strings.Contains(out, "^"), "%s: %s", c.options, out)
	}

	// the filesystem connector reads no Avro yet
	out := runScript(t, "CREATE TABLE f (v STRING) WITH ('connector' = 'filesystem', 'path' = 'testdata/kafka', 'format' = 'avro');\nSELECT * FROM f;\n", 4096)
	require.Contains(t, out, "format 'avro' is not supported yet (supported: csv, json, debezium-json)")
}
