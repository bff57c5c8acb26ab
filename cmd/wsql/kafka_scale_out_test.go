//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// kafkaScaleOutScript is one instance of a query scaled out over the
// partitions of 'events' in consumer group {group}: a TUMBLE per user,
// written exactly once to topic {out}. {key} declares the records keyed
// by user, or is empty: the query then runs through a repartition topic.
const kafkaScaleOutScript = `
CREATE TABLE events (usr STRING, amount DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '{brokers}',
      'properties.group.id' = '{group}', 'wsql.scale-out' = 'consumer-group',
      'properties.session.timeout.ms' = '6000', 'properties.heartbeat.interval.ms' = '300',
      'scan.startup.mode' = 'earliest-offset', {key}'value.format' = 'json');
CREATE TABLE per_window (usr STRING, wend TIMESTAMP(3), n BIGINT, total DOUBLE)
WITH ('connector' = 'kafka', 'topic' = '{out}', 'properties.bootstrap.servers' = '{brokers}', 'format' = 'json',
      'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '{out}');
SET 'execution.checkpointing.interval' = '100 ms';
INSERT INTO per_window
SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), SUM(amount)
FROM events GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);
`

const scaleOutPartitions = 12

// scaleOutEvents are the rounds of records the test produces, each
// partition's in time order: keyed, each user's records in one partition;
// else in any. The last round closes every window with a record an hour
// later. want is the query's result, worked out here.
func scaleOutEvents(rounds, perRound int, keyed bool) (batches [][]kafkatest.Record, want []string) {
	rnd := rand.New(rand.NewPCG(5, 6))
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	last := make([]int64, scaleOutPartitions)
	type window struct {
		usr  string
		wend int64
	}
	counts, sums := map[window]int{}, map[window]float64{}
	record := func(p int, usr string, amount int, ts int64) kafkatest.Record {
		key, _ := json.Marshal(map[string]any{"usr": usr})
		v, _ := json.Marshal(map[string]any{"usr": usr, "amount": amount, "ts": time.UnixMilli(ts).UTC().Format("2006-01-02 15:04:05.000")})
		return kafkatest.Record{Partition: int32(p), Key: key, Value: v}
	}
	for range rounds {
		var batch []kafkatest.Record
		for range perRound {
			u := rnd.IntN(240)
			p := u % scaleOutPartitions
			last[p] += int64(rnd.IntN(40))
			ts := start + last[p]
			if !keyed {
				p = rnd.IntN(scaleOutPartitions) // and one clock for all
				last[0] += int64(rnd.IntN(4))
				ts = start + last[0]
			}
			amount, usr := rnd.IntN(1000), fmt.Sprintf("u%d", u)
			batch = append(batch, record(p, usr, amount, ts))
			w := window{usr, ts - ts%10_000 + 10_000}
			counts[w]++
			sums[w] += float64(amount)
		}
		batches = append(batches, batch)
	}
	var closing []kafkatest.Record
	for p := range scaleOutPartitions {
		closing = append(closing, record(p, fmt.Sprintf("end%d", p), 0, start+slices.Max(last)+3_600_000))
	}
	batches = append(batches, closing)
	for w, n := range counts {
		want = append(want, fmt.Sprintf(`{"usr":"%s","wend":"%s","n":%d,"total":%.1f}`, w.usr, time.UnixMilli(w.wend).UTC().Format("2006-01-02 15:04:05.000"), n, sums[w]))
	}
	slices.Sort(want)
	return batches, want
}

// TestKafkaScaleOut runs a windowed query as a consumer group of
// separate wsql processes over 12 partitions: three instances, one killed
// with SIGKILL and another started while the records come. The committed
// output must equal the query's result and a single instance's run, with
// nothing lost or twice.
func TestKafkaScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several wsql processes")
	}
	t.Run("co-partitioned", func(t *testing.T) { testScaleOut(t, true) })
	t.Run("through a repartition topic", func(t *testing.T) { testScaleOut(t, false) })
}

func testScaleOut(t *testing.T, keyed bool) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", scaleOutPartitions)
	batches, want := scaleOutEvents(24, 1500, keyed)
	key := ""
	if keyed {
		key = "'key.format' = 'json', 'key.fields' = 'usr', "
	}
	base := t.TempDir()
	setUp := func(name string) string {
		script := strings.NewReplacer("{brokers}", k.Brokers(), "{group}", name, "{out}", name, "{key}", key).Replace(kafkaScaleOutScript)
		return kafkaRunDir(t, k, filepath.Join(base, name), script, name, 3)
	}
	read := func(topic string) []string { return topicValues(t, k, topic) }
	// waitFor waits until topic holds as many records as want
	waitFor := func(topic string) []string {
		deadline := time.Now().Add(2 * time.Minute)
		for {
			got := read(topic)
			if len(got) >= len(want) || time.Now().After(deadline) {
				return got
			}
		}
	}
	start := func(dir string) *exec.Cmd {
		cmd := wsqlChild(t, dir)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}
	stop := func(cmds ...*exec.Cmd) {
		for _, cmd := range cmds {
			require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		}
		for _, cmd := range cmds {
			_ = cmd.Wait()
			require.Equal(t, 130, cmd.ProcessState.ExitCode(), "%s", cmd.Stderr) // stopped
			t.Logf("instance %d: %s", cmd.Process.Pid, strings.TrimSpace(fmt.Sprint(cmd.Stderr)))
		}
	}

	// the records are produced while three instances run; the second is
	// killed a third of the way, a fourth joins two thirds of the way
	so := setUp("scaled")
	a, b, c := start(so), start(so), start(so)
	var d *exec.Cmd
	for i, batch := range batches {
		switch i {
		case len(batches) / 3:
			require.NoError(t, b.Process.Kill())
			_ = b.Wait()
		case 2 * len(batches) / 3:
			d = start(so)
		}
		k.Produce(t, "events", batch...)
		time.Sleep(100 * time.Millisecond)
	}
	got := waitFor("scaled")
	stop(a, c, d)
	require.Equal(t, len(compactSet(got)), len(got), "a record committed twice")
	require.Equal(t, want, got)
	require.Equal(t, want, read("scaled"), "after the instances stopped")

	// one instance reading the same records alone writes the same
	one := setUp("single")
	single := start(one)
	require.Equal(t, want, waitFor("single"))
	require.Equal(t, 1, k.Members(t, "single"))
	stop(single)
	// stopped, it left the group at once, not after the session timeout
	require.Equal(t, 0, k.Members(t, "single"))
}
