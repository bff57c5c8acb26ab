package wsql

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
	"github.com/wsql/wsql/internal/s3test"
)

// A windowed query with its checkpoints in an object store, stopped part
// way and run again, resumes from the checkpoint object: its committed
// output is that of an uninterrupted run.
func TestCheckpointsInAnObjectStoreResume(t *testing.T) {
	ref := t.TempDir()
	_, err := runCheckpointed(t, ref, strings.ReplaceAll(generatorScript, "RATE", "0"))
	require.NoError(t, err)
	want := partFiles(t, ref)

	s3test.Start(t)
	store := WithCheckpointDir("s3://" + s3test.Bucket + "/ckpt")
	dir := t.TempDir()
	paced := strings.ReplaceAll(generatorScript, "RATE", "20000") // 1.5 s of rows
	_, err = runCheckpointedUntil(t, dir, paced, 8000, store)
	require.Error(t, err, "stopped part way")
	names, err := checkpoint.List("s3://bucket/ckpt")
	require.NoError(t, err)
	require.Len(t, names, 1, "the checkpoint, its lease released: %v", names)
	require.Regexp(t, `^query-1-[0-9a-f]{12}\.ckpt$`, names[0])
	_, err = os.Stat(filepath.Join(dir, "checkpoints"))
	require.ErrorIs(t, err, os.ErrNotExist, "no local directory is made")
	got := partFiles(t, dir)
	require.True(t, strings.HasPrefix(want, got) && len(got) < len(want), "part of the output so far:\n%s", got)

	notices, err := runCheckpointed(t, dir, paced, store)
	require.NoError(t, err, "%v", notices)
	require.Equal(t, want, partFiles(t, dir))

	notices, err = runCheckpointed(t, dir, paced, store)
	require.NoError(t, err)
	require.Len(t, notices, 1)
	require.Contains(t, notices[0], "in s3://bucket/ckpt)", "the notice names the checkpoint location")
}

// The checks of a checkpoint directory hold in an object store: a
// changed query is refused while its old checkpoint is there, and a
// checkpoint held by a running query is refused to a second.
func TestCheckpointsInAnObjectStoreRefuse(t *testing.T) {
	s3test.Start(t)
	store := WithCheckpointDir("s3://" + s3test.Bucket + "/ckpt/")
	dir := t.TempDir()
	_, err := runCheckpointed(t, dir, checkpointScript, store)
	require.NoError(t, err)
	changed := strings.ReplaceAll(checkpointScript, "COUNT(*)", "COUNT(*) + 1")
	_, err = runCheckpointed(t, dir, changed, store)
	require.ErrorIs(t, err, checkpoint.ErrIncompatible)
	require.ErrorContains(t, err, "the checkpoint s3://bucket/ckpt/query-1-")

	_, err = runCheckpointed(t, dir, checkpointScript, WithCheckpointDir("s3://nobucket/ckpt"))
	require.ErrorContains(t, err, "taking its lease: s3://nobucket/ckpt/query-1-")
	require.ErrorContains(t, err, ".ckpt.lock: the bucket nobucket does not exist")
	require.NotContains(t, err.Error(), "test-secret")

	ctx := context.Background()
	store = WithCheckpointDir("s3://" + s3test.Bucket + "/other")
	e := New(store)
	defer e.Close()
	other := New(store)
	defer other.Close()
	ddl := `CREATE TABLE f (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv', 'source.monitor-interval' = '10 ms')`
	require.NoError(t, e.Exec(ctx, ddl))
	require.NoError(t, other.Exec(ctx, ddl))
	query := `SELECT k, COUNT(*) FROM f GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND)`
	first, err := e.Query(ctx, query)
	require.NoError(t, err)
	defer first.Close()
	time.Sleep(50 * time.Millisecond) // the first run is following the file
	_, err = other.Query(ctx, query)
	require.ErrorContains(t, err, "another engine of this process")
	require.ErrorContains(t, err, "its lease expires at")
	require.ErrorContains(t, err, "is running this query with the checkpoint s3://bucket/other/query-1-")
	require.NoError(t, first.Close())
	again, err := other.Query(ctx, query)
	require.NoError(t, err, "once the first run ended and released its lease")
	require.NoError(t, again.Close())
}

// lockedBuffer is a results writer's destination shared by the runs of
// a scaled-out query.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSpace(l.b.String()), "\n")
}

// scaledOutCounts is the scaled-out query of the object-store tests, a
// count per user of a topic of two partitions keyed by user, and what
// produces its records from..to: four users, ten records a second.
func scaledOutCounts(t *testing.T, k *kafkatest.Cluster) (produce func(from, to int), script string) {
	produce = func(from, to int) {
		var recs []kafkatest.Record
		for i := from; i < to; i++ {
			v := fmt.Sprintf(`{"usr":"u%d","ts":"2026-01-01 00:00:%02d.000"}`, i%4, i/10)
			recs = append(recs, kafkatest.Record{Partition: int32(i % 4 / 2), Key: []byte(fmt.Sprintf(`{"usr":"u%d"}`, i%4)), Value: []byte(v)})
		}
		k.Produce(t, "events", recs...)
	}
	script = "SET 'execution.checkpointing.dir' = 's3://bucket/ckpt';\n" +
		"CREATE TABLE t (usr STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '" +
		k.Brokers() + "', 'properties.group.id' = 'g', 'wsql.scale-out' = 'consumer-group', 'scan.startup.mode' = 'earliest-offset', " +
		"'key.format' = 'json', 'key.fields' = 'usr', 'value.format' = 'json');\n" +
		"SELECT usr, COUNT(*) AS n FROM t GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND);\n"
	return produce, script
}

// A scaled-out Kafka query keeps its per-partition checkpoints in an
// object store: stopped once it read the first records, it resumes each
// partition from its checkpoint object, reading only the records after
// it, and its windows count the records of both runs.
func TestKafkaScaleOutCheckpointsInAnObjectStore(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	s3 := s3test.Start(t)
	produce, script := scaledOutCounts(t, k)
	// run reads until read records, then until done says the results are in
	run := func(read int64, done func([]string) bool) (results []string, rowsRead int64) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var out lockedBuffer
		var mu sync.Mutex
		finished := make(chan error, 1)
		go func() {
			finished <- New().Run(ctx, script, Output{
				NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&out, r.Schema, r.Location), nil },
				OnProgress: func(p Progress) {
					mu.Lock()
					defer mu.Unlock()
					rowsRead = max(rowsRead, p.RowsRead)
					if p.RowsRead >= read && done(out.lines()) {
						cancel()
					}
				},
				ProgressEvery: time.Millisecond,
			})
		}()
		select {
		case err := <-finished:
			require.ErrorIs(t, err, context.Canceled)
		case <-time.After(time.Minute):
			mu.Lock()
			t.Fatalf("the query never got its results: read %d, results %q", rowsRead, out.lines())
		}
		mu.Lock()
		defer mu.Unlock()
		return out.lines(), rowsRead
	}

	produce(0, 80) // ts 0 s to 7 s: the first window, not ended
	_, read := run(80, func([]string) bool { return true })
	require.Equal(t, int64(80), read)
	names, err := checkpoint.List("s3://bucket/ckpt")
	require.NoError(t, err)
	require.Empty(t, names, "a scaled-out query's checkpoints are per partition")
	keys := s3.Keys(t)
	require.Len(t, keys, 2, "a checkpoint per partition, their leases released: %v", keys)
	require.Regexp(t, `^ckpt/query-1-[0-9a-f]{12}\.partitions/events-0\.ckpt$`, keys[0])
	require.Regexp(t, `^ckpt/query-1-[0-9a-f]{12}\.partitions/events-1\.ckpt$`, keys[1])

	produce(80, 120) // ts 8 s to 11 s: the watermark passes the first window
	results, read := run(40, func(lines []string) bool { return len(lines) == 1+4 })
	require.Equal(t, int64(40), read, "each partition resumed after its checkpoint")
	slices.Sort(results)
	require.Equal(t, []string{"u0,25", "u1,25", "u2,25", "u3,25", "usr,n"}, results, "the first window counts both runs' records")
}

// scaledOutInstance is one engine running a scaled-out query, its results
// and its last progress kept for the test.
type scaledOutInstance struct {
	out      lockedBuffer
	mu       sync.Mutex
	last     Progress
	cancel   context.CancelFunc
	finished chan error
}

func startScaledOut(script string) *scaledOutInstance {
	ctx, cancel := context.WithCancel(context.Background())
	in := &scaledOutInstance{cancel: cancel, finished: make(chan error, 1)}
	go func() {
		in.finished <- New().Run(ctx, script, Output{
			NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(&in.out, r.Schema, r.Location), nil },
			OnProgress: func(p Progress) {
				in.mu.Lock()
				defer in.mu.Unlock()
				in.last = p
			},
			ProgressEvery: time.Millisecond,
		})
	}()
	return in
}

func (in *scaledOutInstance) progress() Progress {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.last
}

func (in *scaledOutInstance) stop(t *testing.T) {
	in.cancel()
	select {
	case err := <-in.finished:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute):
		t.Fatal("the instance did not stop")
	}
}

// A partition that moves to another instance is resumed there from its
// checkpoint object: the instance that loses it releases its lease when
// its run stops, so the next takes it without waiting for it to expire.
func TestKafkaScaleOutHandsAPartitionOverThroughTheObjectStore(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	s3 := s3test.Start(t)
	produce, script := scaledOutCounts(t, k)

	produce(0, 80) // the first window, not ended
	a := startScaledOut(script)
	defer a.cancel()
	// the leases of the first instance's runs
	locks := func() map[string]string {
		etags := s3.ETags(t)
		maps.DeleteFunc(etags, func(key, _ string) bool { return !strings.HasSuffix(key, ".lock") })
		return etags
	}
	require.Eventually(t, func() bool { return a.progress().RowsRead == 80 && len(locks()) == 2 }, time.Minute, 10*time.Millisecond)
	held := locks()
	began := time.Now()
	b := startScaledOut(script)
	defer b.cancel()
	// a lock object written anew (a renewal comes only after 10 s) is the
	// second instance's lease: the first released it
	require.Eventually(t, func() bool {
		now := locks()
		return len(now) == 2 && !maps.Equal(now, held)
	}, time.Minute, 10*time.Millisecond, "the group gives the second instance a partition")
	require.Less(t, time.Since(began), lockWait/2, "the partition's lease was released, not waited out")

	produce(80, 120) // the watermark passes the first window
	results := func() []string {
		var rows []string
		for _, in := range []*scaledOutInstance{a, b} {
			for _, line := range in.out.lines() {
				if line != "usr,n" && line != "" {
					rows = append(rows, line)
				}
			}
		}
		slices.Sort(rows)
		return rows
	}
	require.Eventually(t, func() bool { return len(results()) == 4 }, time.Minute, 10*time.Millisecond)
	a.stop(t)
	b.stop(t)
	require.Equal(t, []string{"u0,25", "u1,25", "u2,25", "u3,25"}, results(), "each window counts the records read before and after the handover")
	require.NotEmpty(t, slices.DeleteFunc(b.out.lines(), func(l string) bool { return l == "usr,n" || l == "" }), "the second instance emitted its partition's windows")
}
