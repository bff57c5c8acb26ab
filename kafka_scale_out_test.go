package wsql

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

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
		{keyed, "SELECT usr, COUNT(*) OVER (PARTITION BY usr ORDER BY ts) FROM t", true, "a join, union, subquery or OVER aggregation over one is not supported yet"},
		{keyed, "SELECT a.usr FROM t a JOIN t b ON a.usr = b.usr", true, "a scaled-out read ('wsql.scale-out') must be the query's only source"},
	} {
		out := runScript(t, script(c.options, c.query, c.checkpoints), 4096)
		require.Contains(t, out, c.want, c.options)
		require.True(t, strings.Contains(out, "error: "), "%s: %s", c.options, out)
	}
}

// EXPLAIN shows a scaled-out query's group, stages and topics: one stage
// when the records are keyed by the grouping keys, else two through a
// repartition topic.
func TestKafkaScaleOutExplain(t *testing.T) {
	table := func(key string) string {
		return "CREATE TABLE events (usr STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'events', " +
			"'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g', 'wsql.scale-out' = 'consumer-group', " +
			"'scan.startup.mode' = 'earliest-offset', " + key + "'value.format' = 'json');\n" +
			"EXPLAIN SELECT usr, COUNT(*) FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);\n"
	}
	out := runScript(t, table("'key.format' = 'json', 'key.fields' = 'usr', "), 4096)
	require.Contains(t, out, "ScaleOut(consumer group=[g], state=[checkpointed per partition])\n+- stage 1: a run per partition of topic [events]: the plan above\n")
	out = runScript(t, table(""), 4096)
	require.Regexp(t, `ScaleOut\(consumer group=\[g\], state=\[checkpointed per partition\]\)
\+- stage 1: a run per partition of topic \[events\]: the plan above up to its window \(scan, computed columns, watermark, WHERE, Calc\) -> topic \[(g-q[0-9a-f]{12}-repartition)\] by the hash of \[usr\], each run's watermark into every partition
\+- stage 2: a run per partition of topic \[g-q[0-9a-f]{12}-repartition\], its watermark the least of the stage 1 runs': the rest of the plan above`, out)
}

// A scaled-out query's progress is the query's: the rows of all its
// partitions' runs, never fewer than before, and each partition's
// consumer lag.
func TestKafkaScaleOutProgressIsTheQuerys(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 3)
	var recs []kafkatest.Record
	for i := range 300 {
		v := fmt.Sprintf(`{"usr":"u%d","v":%d,"ts":"2026-01-01 00:00:%02d.000"}`, i%30, i, i%60)
		recs = append(recs, kafkatest.Record{Partition: int32(i % 3), Key: []byte(fmt.Sprintf(`{"usr":"u%d"}`, i%30)), Value: []byte(v)})
	}
	k.Produce(t, "events", recs...)
	src := "CREATE TABLE t (usr STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" +
		k.Brokers() + "', 'properties.group.id' = 'g', 'wsql.scale-out' = 'consumer-group', 'scan.startup.mode' = 'earliest-offset', " +
		"'key.format' = 'json', 'key.fields' = 'usr', 'value.format' = 'json');\n" +
		"CREATE TABLE sink (usr STRING, n BIGINT) WITH ('connector' = 'blackhole');\n" +
		"INSERT INTO sink SELECT usr, COUNT(*) FROM t GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);\n"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var snaps []Progress
	var all Progress // the snapshot with every record read
	done := make(chan error, 1)
	go func() {
		done <- New(WithCheckpointDir(t.TempDir())).Run(ctx, src, Output{
			OnProgress: func(p Progress) {
				mu.Lock()
				defer mu.Unlock()
				snaps = append(snaps, p)
				if p.RowsRead == 300 && len(p.Lags) == 3 && all.RowsRead == 0 {
					all = p
					cancel() // every record read; runs that stop after report less
				}
			},
			ProgressEvery: time.Nanosecond,
		})
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute):
		t.Fatal("the query never read the 300 records")
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(snaps); i++ {
		require.GreaterOrEqual(t, snaps[i].RowsRead, snaps[i-1].RowsRead, "snapshot %d", i)
	}
	require.Equal(t, int64(300), snaps[len(snaps)-1].RowsRead)
	require.Len(t, all.Lags, 3, "a consumer lag per partition")
	require.Len(t, all.Splits, 3, "a split per partition")
}

// A scaled-out query grouping by an expression, over records not keyed
// by it, runs in two stages: the first computes the expression (and
// filters) before the shuffle. Its results are a single run's.
func TestKafkaScaleOutGroupsByAnExpression(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 3)
	k.CreateTopic(t, "out", 1)
	var recs []kafkatest.Record
	for i := range 600 {
		usr := []string{"ann", "Ann", "bob", "BOB", "cy"}[i%5]
		v := fmt.Sprintf(`{"usr":"%s","v":%d,"ts":"2026-01-01 00:%02d:%02d.000"}`, usr, i, i/60, i%60)
		recs = append(recs, kafkatest.Record{Partition: int32(i % 3), Value: []byte(v)})
	}
	for p := range 3 { // closes every window
		recs = append(recs, kafkatest.Record{Partition: int32(p), Value: []byte(`{"usr":"end","v":1,"ts":"2026-01-01 01:00:00.000"}`)})
	}
	k.Produce(t, "events", recs...)
	table := func(options string) string {
		return "CREATE TABLE t (usr STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" +
			k.Brokers() + "', 'scan.startup.mode' = 'earliest-offset', 'value.format' = 'json'" + options + ");\n"
	}
	const query = "SELECT UPPER(usr) AS u, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n, SUM(v % 7) AS s FROM t WHERE v % 4 <> 0 GROUP BY UPPER(usr), TUMBLE(ts, INTERVAL '1' MINUTE)"
	single := runScript(t, table(", 'scan.bounded.mode' = 'latest-offset'")+query+";\n", 4096)
	var want []string
	for _, line := range strings.Split(single, "\n") {
		// the window of the records that close the others closes only at the end of a bounded read
		if f := strings.Split(line, ","); len(f) == 4 && f[0] != "u" && f[0] != "END" && !strings.HasPrefix(line, "--") {
			want = append(want, fmt.Sprintf(`{"u":"%s","wend":"%s","n":%s,"s":%s}`, f[0], f[1], f[2], f[3]))
		}
	}
	require.Len(t, want, 3*10, "three keys in each of ten minutes: %s", single)

	script := table(", 'properties.group.id' = 'g', 'wsql.scale-out' = 'consumer-group'") +
		"CREATE TABLE results (u STRING, wend TIMESTAMP(3), n BIGINT, s INT) WITH ('connector' = 'kafka', 'topic' = 'out', 'properties.bootstrap.servers' = '" +
		k.Brokers() + "', 'format' = 'json');\nINSERT INTO results " + query + ";\n"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- New(WithCheckpointDir(t.TempDir())).Run(ctx, script, Output{}) }()
	var got []string
	for deadline := time.Now().Add(time.Minute); len(got) < len(want); {
		require.True(t, time.Now().Before(deadline), "%d of %d results", len(got), len(want))
		select {
		case err := <-done:
			t.Fatalf("the scaled-out query ended: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
		got = got[:0]
		for _, r := range k.ReadAll(t, "out") {
			got = append(got, string(r.Value))
		}
	}
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	require.ElementsMatch(t, want, got)
}
