package wsql

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// A scaled-out read that cannot keep its state per partition is refused
// with the reason, before it joins its group.
func TestKafkaScaleOutErrors(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	dir := t.TempDir()
	script := func(options, query string, checkpoints bool) string {
		s := "CREATE TABLE t (usr STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" +
			k.Brokers() + "', 'scan.startup.mode' = 'earliest-offset', 'wsql.scale-out' = 'consumer-group', 'value.format' = 'json', " + options + ");\n"
		if checkpoints {
			s += "SET 'execution.checkpointing.dir' = '" + dir + "';\n"
		}
		return s + query + ";\n"
	}
	const keyed = "'properties.group.id' = 'g', 'key.format' = 'json', 'key.fields' = 'usr'"
	const perUser = "SELECT usr, COUNT(*) FROM t GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)"
	for _, c := range []struct {
		options, query string
		checkpoints    bool
		want           string
	}{
		{"'key.format' = 'json', 'key.fields' = 'usr'", perUser, true,
			"'wsql.scale-out' = 'consumer-group' shares the read among the members of a consumer group: table t needs a 'properties.group.id' option"},
		{keyed + ", 'scan.bounded.mode' = 'latest-offset'", perUser, true, "a scaled-out read runs until it is stopped: a bounded one ('scan.bounded.mode') is not supported yet"},
		{keyed, perUser, false, "set a checkpoint directory all instances share"},
		{keyed, "SELECT v, COUNT(*) FROM t GROUP BY v, TUMBLE(ts, INTERVAL '1' MINUTE)", true,
			"the query groups by v, which does not include usr, a key column of table t"},
		{keyed, "SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)", true, "the query groups by no column, which does not include usr"},
		{"'properties.group.id' = 'g'", perUser, true, "table t declares no 'key.fields'"},
		{keyed, "SELECT a.usr FROM t a JOIN t b ON a.usr = b.usr", true, "a scaled-out read ('wsql.scale-out') must be the query's only source"},
	} {
		out := runScript(t, script(c.options, c.query, c.checkpoints), 4096)
		require.Contains(t, out, c.want, c.options)
		require.True(t, strings.Contains(out, "error: "), "%s: %s", c.options, out)
	}
}
