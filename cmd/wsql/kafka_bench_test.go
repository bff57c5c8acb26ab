//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// kafkaBenchScript reads a topic of JSON events to its end and counts
// them per user per TUMBLE into a blackhole.
const kafkaBenchScript = `
CREATE TABLE events (usr STRING, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '{brokers}',
      'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE counts (usr STRING, wend TIMESTAMP(3), n BIGINT, total DOUBLE) WITH ('connector' = 'blackhole');
INSERT INTO counts
SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), SUM(amount)
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);
`

// BenchmarkKafkaTumbleJSON measures a wsql process reading JSON events
// from Kafka into a TUMBLE per key: the cluster (kfake, in this test's
// process) is filled once, and each iteration runs wsql as a child
// process, whose CPU time alone is counted: events per CPU-second is the
// read's rate, decoding and client, without the broker's.
// KAFKA_BENCH_EVENTS sets the number of events (default 1M).
func BenchmarkKafkaTumbleJSON(b *testing.B) {
	events := benchEvents(1_000_000)
	k := kafkatest.Start(b)
	fillBenchTopic(b, k, events, 4, 1000, false)
	dir := b.TempDir()
	script := filepath.Join(dir, "q.sql")
	require.NoError(b, os.WriteFile(script, []byte(strings.ReplaceAll(kafkaBenchScript, "{brokers}", k.Brokers())), 0o644))
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		var stderr bytes.Buffer
		cmd := exec.Command(os.Args[0], "run", script)
		cmd.Env = append(os.Environ(), benchChildEnv+"=1")
		if p := os.Getenv("KAFKA_BENCH_CPUPROFILE"); p != "" {
			cmd.Env = append(cmd.Env, benchProfileEnv+"="+p)
		}
		cmd.Stderr = &stderr
		require.NoError(b, cmd.Run(), "%s", &stderr)
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		require.Contains(b, stderr.String(), fmt.Sprintf("%d rows read", events))
	}
	b.ReportMetric(float64(events)*float64(b.N)/cpu.Seconds(), "events/CPU-s")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// benchEvents is KAFKA_BENCH_EVENTS, or else def.
func benchEvents(def int) int {
	if n := os.Getenv("KAFKA_BENCH_EVENTS"); n != "" {
		fmt.Sscan(n, &def)
	}
	return def
}

// fillBenchTopic makes topic "events" of the partitions given and fills it
// with JSON events of users, a millisecond apart; keyed, each record is
// keyed by its user and in its user's partition, else they go round.
func fillBenchTopic(b *testing.B, k *kafkatest.Cluster, events, partitions, users int, keyed bool) {
	k.CreateTopic(b, "events", partitions)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	batch := make([]kafkatest.Record, 0, 50_000)
	for i := range events {
		u := i % users
		at := time.UnixMilli(start + int64(i)).UTC().Format("2006-01-02 15:04:05.000")
		v, _ := json.Marshal(map[string]any{"usr": fmt.Sprintf("u%d", u), "amount": i % 997, "ts": at})
		r := kafkatest.Record{Partition: int32(i % partitions), Value: v}
		if keyed {
			r.Key, _ = json.Marshal(map[string]any{"usr": fmt.Sprintf("u%d", u)})
			r.Partition = int32(u % partitions)
		}
		if batch = append(batch, r); len(batch) == cap(batch) || i == events-1 {
			k.Produce(b, "events", batch...)
			batch = batch[:0]
		}
	}
}
