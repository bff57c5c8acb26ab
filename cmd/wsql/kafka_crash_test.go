//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// kafkaCrashScript reads a topic of three partitions to its end and writes
// a TUMBLE per user to another topic, exactly once, with a checkpoint
// every 5 ms (each commits a Kafka transaction).
const kafkaCrashScript = `
CREATE TABLE events (usr STRING, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '{brokers}',
      'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (usr STRING, wend TIMESTAMP(3), n BIGINT, total DOUBLE)
WITH ('connector' = 'kafka', 'topic' = '{out}', 'properties.bootstrap.servers' = '{brokers}', 'format' = 'json',
      'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '{out}');
SET 'execution.checkpointing.interval' = '5 ms';
INSERT INTO per_window
SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), SUM(amount)
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);
`

// TestKafkaCrashAndRestartWritesExactlyOnce kills a wsql that reads one
// topic and writes another exactly once, with SIGKILL at random moments
// and soon after checkpoints, and restarts it from its checkpoints until
// it finishes: a read_committed consumer must then see exactly the
// records of an uninterrupted run, and at each kill no record that run
// does not write.
func TestKafkaCrashAndRestartWritesExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql many times")
	}
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 3)
	rnd := rand.New(rand.NewPCG(3, 4))
	var recs []kafkatest.Record
	for p := range 3 {
		ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() + int64(p)*300
		for range 20_000 {
			ts += int64(rnd.IntN(100))
			at := time.UnixMilli(ts - int64(rnd.IntN(1500))).UTC().Format("2006-01-02 15:04:05.000")
			v, _ := json.Marshal(map[string]any{"usr": fmt.Sprintf("u%d", rnd.IntN(200)), "amount": rnd.IntN(1000), "ts": at})
			recs = append(recs, kafkatest.Record{Partition: int32(p), Value: v})
		}
	}
	k.Produce(t, "events", recs...)
	base := t.TempDir()
	newRun := func(name string) string {
		return kafkaRunDir(t, k, filepath.Join(base, name), strings.NewReplacer("{brokers}", k.Brokers(), "{out}", name).Replace(kafkaCrashScript), name, 2)
	}
	read := func(topic string) []string { return topicValues(t, k, topic) }

	ref := newRun("ref")
	cmd := wsqlChild(t, ref)
	start := time.Now()
	require.NoError(t, cmd.Run(), "%s", cmd.Stderr)
	took := time.Since(start)
	want := read("ref")
	require.Greater(t, len(want), 500)
	t.Logf("uninterrupted run: %v, %d records", took, len(want))

	kill := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	resumed := 0
	for round := range 2 {
		name := fmt.Sprintf("crash-%d", round)
		dir := newRun(name)
		resumed += crashLoop(t, dir, 5, took, kill, func(kills int) {
			got := read(name)
			require.Subsetf(t, want, got, "round %d, kill %d: the topic holds a record an uninterrupted run does not write", round, kills)
			require.Equal(t, len(got), len(compactSet(got)), "round %d, kill %d: a record committed twice", round, kills)
		})
		require.Equal(t, want, read(name), "round %d, after the kills", round)
	}
	t.Logf("%d runs resumed from a checkpoint", resumed)
}

func compactSet(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// kafkaRunDir makes dir with the script q.sql, and the output topic out
// of the partitions given.
func kafkaRunDir(t *testing.T, k *kafkatest.Cluster, dir, script, out string, partitions int) string {
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(script), 0o644))
	k.CreateTopic(t, out, partitions)
	return dir
}

// topicValues are the values a read_committed consumer sees in topic,
// sorted.
func topicValues(t *testing.T, k *kafkatest.Cluster, topic string) []string {
	var out []string
	for _, r := range k.ReadAll(t, topic) {
		out = append(out, string(r.Value))
	}
	slices.Sort(out)
	return out
}
