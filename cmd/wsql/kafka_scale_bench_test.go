//go:build unix

package main

import (
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

// kafkaScaleBenchScript is one instance of a TUMBLE per user over a topic
// of records keyed by user, scaled out, into a blackhole; each durable
// checkpoint commits its offsets to the group, which tells the benchmark
// when the topic is read.
const kafkaScaleBenchScript = `
CREATE TABLE events (usr STRING, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '{brokers}',
      'properties.group.id' = '{group}', 'wsql.scale-out' = 'consumer-group',
      'properties.session.timeout.ms' = '6000', 'properties.heartbeat.interval.ms' = '300',
      'scan.startup.mode' = 'earliest-offset', 'key.format' = 'json', 'key.fields' = 'usr', 'value.format' = 'json');
CREATE TABLE counts (usr STRING, wend TIMESTAMP(3), n BIGINT, total DOUBLE) WITH ('connector' = 'blackhole');
SET 'execution.checkpointing.interval' = '200 ms';
INSERT INTO counts
SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), SUM(amount)
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);
`

// BenchmarkKafkaScaleOut runs 1, 2 and 4 instances of a scaled-out query,
// each a process at GOMAXPROCS=1, over a topic of 12 partitions filled
// once: events/s is the wall-clock rate from the instances' start until
// the group has committed the end of every partition (the group's joins
// and rebalances included), events/CPU-s the rate per CPU-second of all
// the instances together, broker-CPU-s/op the CPU of this process, the
// in-process cluster's, while they run; spread-events/s is the wall-clock
// rate once the group is stable with every instance holding partitions
// (the rate the group's size gives, without its forming).
// KAFKA_BENCH_EVENTS sets the events (default 2M).
func BenchmarkKafkaScaleOut(b *testing.B) {
	events := benchEvents(2_000_000)
	k := kafkatest.Start(b)
	const partitions = 12
	fillBenchTopic(b, k, events, partitions, 1200, true)
	runs := 0
	for _, instances := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("instances=%d", instances), func(b *testing.B) {
			var cpu, wall, broker, steadyWall time.Duration
			var steadyEvents int64
			for range b.N {
				runs++
				group := fmt.Sprintf("bench-%d", runs)
				dir := filepath.Join(b.TempDir(), group)
				require.NoError(b, os.MkdirAll(dir, 0o755))
				script := strings.NewReplacer("{brokers}", k.Brokers(), "{group}", group).Replace(kafkaScaleBenchScript)
				require.NoError(b, os.WriteFile(filepath.Join(dir, "q.sql"), []byte(script), 0o644))
				began, self := time.Now(), selfCPU()
				var cmds []*exec.Cmd
				for range instances {
					cmd := wsqlChild(b, dir)
					cmd.Env = append(cmd.Env, "GOMAXPROCS=1")
					require.NoError(b, cmd.Start())
					cmds = append(cmds, cmd)
				}
				var spreadAt time.Time
				var spreadCommitted int64
				for {
					committed := k.Committed(b, group, "events")
					if committed >= int64(events) {
						break
					}
					if spreadAt.IsZero() && k.Spread(b, group, instances, partitions) {
						spreadAt, spreadCommitted = time.Now(), committed
					}
					require.Less(b, time.Since(began), 5*time.Minute, "the instances never read the topic")
					time.Sleep(20 * time.Millisecond)
				}
				wall += time.Since(began)
				if !spreadAt.IsZero() {
					steadyWall += time.Since(spreadAt)
					steadyEvents += int64(events) - spreadCommitted
				}
				broker += selfCPU() - self
				for _, cmd := range cmds {
					require.NoError(b, cmd.Process.Signal(syscall.SIGTERM))
				}
				for _, cmd := range cmds {
					_ = cmd.Wait()
					require.Equal(b, 130, cmd.ProcessState.ExitCode(), "%s", cmd.Stderr)
					ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
					cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
				}
			}
			b.ReportMetric(float64(events)*float64(b.N)/wall.Seconds(), "events/s")
			b.ReportMetric(float64(events)*float64(b.N)/cpu.Seconds(), "events/CPU-s")
			b.ReportMetric(broker.Seconds()/float64(b.N), "broker-CPU-s/op")
			if steadyWall > 0 {
				b.ReportMetric(float64(steadyEvents)/steadyWall.Seconds(), "spread-events/s")
			}
		})
	}
}

// selfCPU is the CPU time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
