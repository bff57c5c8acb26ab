package wsql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// A Kafka table's options are checked with a position and a reason, and a
// topic the cluster does not have is named when the query starts.
func TestKafkaOptionErrors(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	table := func(options string) string {
		return "CREATE TABLE t (v STRING) WITH ('connector' = 'kafka', 'properties.bootstrap.servers' = '" + k.Brokers() + "', " +
			options + ");\nSELECT * FROM t;\n"
	}
	for _, c := range []struct{ options, want string }{
		{"'format' = 'raw'", "needs a 'topic' option or a 'topic-pattern'"},
		{"'topic' = 'events', 'topic-pattern' = 'e.*', 'format' = 'raw'", "gives both 'topic' and 'topic-pattern'"},
		{"'topic' = 'events'", "needs a 'format' or 'value.format' option (json, csv, raw, avro, avro-confluent)"},
		{"'topic' = 'events', 'format' = 'avro-confluent'", "format 'avro-confluent' needs 'avro-confluent.url': the schema registry's URL"},
		{"'topic' = 'events', 'format' = 'raw', 'key.format' = 'debezium-json', 'key.fields' = 'v'", "format 'debezium-json' is not supported for Kafka yet (supported: json, csv, raw, avro, avro-confluent)"},
		{"'topic' = 'events', 'format' = 'raw', 'scan.startup.mode' = 'earliest'", "option 'scan.startup.mode' must be one of earliest-offset, latest-offset, group-offsets, timestamp, specific-offsets, got 'earliest'"},
		{"'topic' = 'events', 'format' = 'raw'", "'group-offsets' reads the committed offsets of a consumer group: table t needs a 'properties.group.id' option"},
		{"'topic' = 'events', 'format' = 'raw', 'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'partition:0;offset:1'", "must be pairs like 'partition:0,offset:42' separated by ';'"},
		{"'topic' = 'events', 'format' = 'raw', 'scan.startup.mode' = 'timestamp'", "needs a time: table t has no 'scan.startup.timestamp-millis' option"},
		{"'topic' = 'events', 'format' = 'raw', 'properties.fetch.min.bytes' = '1'", "Kafka property 'fetch.min.bytes' is not supported: wsql passes auto.offset.reset, client.id, fetch.max.bytes, heartbeat.interval.ms, isolation.level"},
		{"'topic' = 'events', 'format' = 'raw', 'properties.max.partition.fetch.bytes' = '1MB'", "property 'max.partition.fetch.bytes' must be a number of bytes above 0, got '1MB'"},
		{"'topic' = 'events', 'format' = 'raw', 'scan.startup.mode' = 'earliest-offset', 'properties.security.protocol' = 'SASL_SSL'", "uses security.protocol SASL_SSL but gives no 'properties.sasl.jaas.config'"},
		{"'topic' = 'events', 'format' = 'raw', 'key.format' = 'raw'", "'key.format' needs 'key.fields'"},
		{"'topic' = 'events', 'format' = 'raw', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'sink.partitioner' = 'fixed', 'scan.startup.offsets' = '1'", "unsupported option 'scan.startup.offsets' for connector 'kafka'"},
		{"'topic' = 'events', 'format' = 'raw', 'scan.startup.mode' = 'earliest-offset', 'scan.watermark.alignment.max-drift' = '1 min'", "option 'scan.watermark.alignment.max-drift' needs 'scan.watermark.alignment.group'"},
		{"'topic' = 'nosuch', 'format' = 'raw', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'", "table t: topic nosuch:"},
	} {
		out := runScript(t, table(c.options), 4096)
		require.Contains(t, out, c.want, c.options)
		require.True(t, strings.Contains(out, "error: ") || strings.Contains(out, "^"), "%s: %s", c.options, out)
	}
}

// An exactly-once Kafka sink needs the prefix of its transactional ids.
func TestKafkaSinkErrors(t *testing.T) {
	k := kafkatest.Start(t)
	src := "CREATE TABLE t (v STRING) WITH ('connector' = 'kafka', 'topic' = 'out', 'properties.bootstrap.servers' = '" + k.Brokers() +
		"', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once');\nINSERT INTO t VALUES ('a');\n"
	out := runScript(t, src, 4096)
	require.Contains(t, out, "'sink.delivery-guarantee' = 'exactly-once' needs 'sink.transactional-id-prefix'")
}

// A Kafka read's skipped messages go to 'wsql.bad-rows.path', a value a
// line, its line breaks made blanks; tombstones write nothing.
func TestKafkaBadRowsFile(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	k.Produce(t, "events",
		kafkatest.Record{Partition: 0, Value: []byte(`{"n":1}`)},
		kafkatest.Record{Partition: 0, Value: []byte("{\"n\":\n\"two\"}")},
		kafkatest.Record{Partition: 1, Value: nil},
		kafkatest.Record{Partition: 1, Value: []byte(`{"n":3}`)},
		kafkatest.Record{Partition: 1, Value: []byte(`not json`)})
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	out := runScript(t, "SET 'wsql.bad-rows.path' = '"+bad+"';\nCREATE TABLE t (n INT) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '"+k.Brokers()+
		"', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json', 'json.ignore-parse-errors' = 'true');\nSELECT n FROM t;\n", 4096)
	require.Contains(t, out, "5 rows read, 0 late rows dropped, 3 bad rows skipped, 2 result rows", out)
	lines, err := os.ReadFile(bad)
	require.NoError(t, err)
	got := strings.Split(strings.TrimSpace(string(lines)), "\n")
	slices.Sort(got)
	require.Equal(t, []string{`not json`, `{"n": "two"}`}, got)
}

// With checkpoints, a read commits each durable checkpoint's offsets to
// its consumer group (for monitoring, as Flink's source does): after a
// run to the end the group's offsets are the partitions' ends, and a
// read that starts at 'group-offsets' finds nothing left.
func TestKafkaCommitsCheckpointOffsetsToTheGroup(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	k.Produce(t, "events",
		kafkatest.Record{Partition: 0, Value: []byte(`{"n":1}`)},
		kafkatest.Record{Partition: 1, Value: []byte(`{"n":2}`)},
		kafkatest.Record{Partition: 1, Value: []byte(`{"n":3}`)})
	table := func(startup string) string {
		return "CREATE TABLE t (n INT) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" + k.Brokers() +
			"', 'properties.group.id' = 'monitor', 'properties.auto.offset.reset' = 'earliest', 'scan.startup.mode' = '" + startup +
			"', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');\nSELECT n FROM t;\n"
	}
	run := func(src string) string {
		var out strings.Builder
		e := New(WithCheckpointDir(t.TempDir()))
		err := e.Run(context.Background(), src, Output{
			NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, r.Location), nil },
			OnSummary: func(s Summary) { fmt.Fprintf(&out, "-- %s\n", s.Counts()) },
		})
		require.NoError(t, err)
		return out.String()
	}
	require.Contains(t, run(table("group-offsets")), "3 rows read")
	require.Contains(t, run(table("group-offsets")), "0 rows read")
}

// A Kafka sink refuses a NULL written into a NOT NULL column, naming the
// column and the row, as the filesystem sink does.
func TestKafkaSinkRefusesNullInNotNull(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "out", 1)
	src := "CREATE TABLE t (id BIGINT NOT NULL, v STRING) WITH ('connector' = 'kafka', 'topic' = 'out', 'properties.bootstrap.servers' = '" + k.Brokers() +
		"', 'format' = 'json');\nINSERT INTO t VALUES (1, 'a'), (CAST(NULL AS BIGINT), 'b');\n"
	out := runScript(t, src, 4096)
	require.Contains(t, out, `column id of sink table t is NOT NULL, but the query writes NULL into it, in the row (id=NULL, v="b")`, out)
}
