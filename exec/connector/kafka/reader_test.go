package kafka

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
	"github.com/wsql/wsql/sql"
)

// planTable plans the read of a table declared by ddl.
func planTable(t *testing.T, ddl string, batchSize int) *Source {
	t.Helper()
	stmts, err := sql.Parse(ddl)
	require.NoError(t, err)
	tbl, err := catalog.NewTable(stmts[0].(*sql.CreateTable))
	require.NoError(t, err)
	conn, _ := tbl.Options.Lookup(connector.KeyConnector)
	c, ok := connector.Lookup(conn.Value)
	require.True(t, ok)
	src, err := c.NewSource(tbl, conn, &connector.Env{BatchSize: batchSize, Run: true})
	require.NoError(t, err)
	return src.(*Source)
}

// drain reads r to its end, or n steps with records, as "split: v" lines.
func drain(t *testing.T, r exec.BatchReader, n int) (rows []string, ends int) {
	t.Helper()
	for steps := 0; n < 0 || steps < n; {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if b.End {
			ends++
			continue
		}
		if b.Record == nil {
			continue
		}
		col := b.Record.Column(0).(*array.String)
		for i := range col.Len() {
			rows = append(rows, fmt.Sprintf("%d: %s", b.Split, col.Value(i)))
		}
		b.Record.Release()
		steps++
	}
	return rows, ends
}

func fill(t *testing.T, k *kafkatest.Cluster, topic string, partitions, perPartition int) []string {
	k.CreateTopic(t, topic, partitions)
	var recs []kafkatest.Record
	var want []string
	for p := range partitions {
		for i := range perPartition {
			v := fmt.Sprintf("p%d-%02d", p, i)
			recs = append(recs, kafkatest.Record{Partition: int32(p), Value: []byte(v)})
			want = append(want, fmt.Sprintf("%d: %s", p, v))
		}
	}
	k.Produce(t, topic, recs...)
	return want
}

const rawTable = `CREATE TABLE t (v STRING) WITH ('connector' = 'kafka', 'topic' = 'events',
  'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'raw')`

// A bounded read gives every record of every partition once, each
// partition a split in order, and ends each split once; a read resumed
// from the state saved after some batches gives exactly the rest, however
// many were fetched and not yet handed out when the state was saved.
func TestReaderResumesFromItsSavedOffsets(t *testing.T) {
	k := kafkatest.Start(t)
	want := fill(t, k, "events", 3, 40)
	for _, size := range []int{1, 7, 4096} {
		for _, stop := range []int{0, 1, 5, 30} {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			src := planTable(t, fmt.Sprintf(rawTable, k.Brokers()), size)
			r, err := src.Open(mem, nil)
			require.NoError(t, err)
			require.Equal(t, 3, r.NumSplits())
			first, ends1 := drain(t, r, stop)
			var e checkpoint.Encoder
			require.NoError(t, r.(exec.StateReader).SaveState(&e))
			require.NoError(t, r.Close())

			r, err = src.Open(mem, checkpoint.NewDecoder(e.Data()))
			require.NoError(t, err)
			rest, ends2 := drain(t, r, -1)
			require.NoError(t, r.Close())
			got := append(first, rest...)
			name := fmt.Sprintf("batch size %d, stop after %d", size, stop)
			require.Equal(t, 3, ends1+ends2, name)
			require.Len(t, got, len(want), name)
			slices.Sort(got)
			require.Equal(t, want, got, name)
			require.Equal(t, int64(0), r.Stats().Skipped)
			mem.AssertSize(t, 0)
		}
	}
}

// Within a partition the records come in offset order.
func TestReaderKeepsEachPartitionsOrder(t *testing.T) {
	k := kafkatest.Start(t)
	fill(t, k, "events", 4, 25)
	src := planTable(t, fmt.Sprintf(rawTable, k.Brokers()), 3)
	r, err := src.Open(memory.DefaultAllocator, nil)
	require.NoError(t, err)
	defer r.Close()
	rows, ends := drain(t, r, -1)
	require.Equal(t, 4, ends)
	last := map[string]string{}
	for _, row := range rows {
		split, v, _ := strings.Cut(row, ": ")
		require.Greater(t, v, last[split], "split %s", split)
		last[split] = v
	}
}

// An empty topic's bounded read ends at once; an empty partition among
// others ends without holding them back.
func TestReaderEndsEmptyPartitions(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	k.Produce(t, "events", kafkatest.Record{Partition: 1, Value: []byte("only")})
	r, err := planTable(t, fmt.Sprintf(rawTable, k.Brokers()), 10).Open(memory.DefaultAllocator, nil)
	require.NoError(t, err)
	defer r.Close()
	rows, ends := drain(t, r, -1)
	require.Equal(t, []string{"1: only"}, rows)
	require.Equal(t, 2, ends)
}

// A bounded read ends a partition at its end, not when a fetch brings
// nothing of it: a broker leaves partitions out of a fetch to keep it
// within 'max.partition.fetch.bytes' and 'fetch.max.bytes', here on
// almost every fetch.
func TestReaderReadsThePartitionsAFetchLeftOut(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 4)
	var recs []kafkatest.Record
	for i := range 400 {
		recs = append(recs, kafkatest.Record{Partition: int32(i % 4), Value: fmt.Appendf(nil, "%d-%s", i, strings.Repeat("x", i%50))})
	}
	k.Produce(t, "events", recs...)
	ddl := strings.Replace(fmt.Sprintf(rawTable, k.Brokers()), "'format'", "'properties.max.partition.fetch.bytes' = '1024', 'format'", 1)
	r, err := planTable(t, ddl, 4096).Open(memory.DefaultAllocator, nil)
	require.NoError(t, err)
	defer r.Close()
	rows, ends := drain(t, r, -1)
	require.Equal(t, 400, len(rows))
	require.Equal(t, 4, ends)
}

// A bounded read ends a partition whose last records before its end are
// a transaction's markers, which make no rows: a read_committed read
// gives the committed records only, a read_uncommitted read the aborted
// ones too.
func TestReaderEndsAfterTransactionMarkers(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	k.ProduceInTransaction(t, "events", true, kafkatest.Record{Partition: 0, Value: []byte("kept")}, kafkatest.Record{Partition: 1, Value: []byte("kept")})
	k.ProduceInTransaction(t, "events", false, kafkatest.Record{Partition: 0, Value: []byte("aborted")})
	for _, tc := range []struct {
		level string
		want  []string
	}{
		{"read_committed", []string{"0: kept", "1: kept"}},
		{"read_uncommitted", []string{"0: aborted", "0: kept", "1: kept"}},
	} {
		t.Run(tc.level, func(t *testing.T) {
			ddl := strings.Replace(fmt.Sprintf(rawTable, k.Brokers()), "'format'", "'properties.isolation.level' = '"+tc.level+"', 'format'", 1)
			r, err := planTable(t, ddl, 10).Open(memory.DefaultAllocator, nil)
			require.NoError(t, err)
			defer r.Close()
			rows, ends := drain(t, r, -1)
			slices.Sort(rows)
			require.Equal(t, tc.want, rows)
			require.Equal(t, 2, ends)
		})
	}
}

// An upsert-kafka read gives each key's changes, -U and -D with the row
// before, and a read resumed from its saved state goes on with the rows
// it kept: the changes are those of one whole read.
func TestUpsertReaderResumesWithItsKeys(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "kv", 1)
	rec := func(key, value string) kafkatest.Record {
		r := kafkatest.Record{Key: []byte(key)}
		if value != "" {
			r.Value = []byte(value)
		}
		return r
	}
	k.Produce(t, "kv", rec("a", "1"), rec("b", "2"), rec("a", "3"), rec("b", ""), rec("c", ""), rec("a", "4"))
	ddl := fmt.Sprintf(`CREATE TABLE kv (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'kv', 'properties.bootstrap.servers' = '%s', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'raw', 'value.format' = 'raw', 'value.fields-include' = 'EXCEPT_KEY')`, k.Brokers())
	changes := func(r exec.BatchReader, steps int) []string {
		var out []string
		for n := 0; steps < 0 || n < steps; {
			b, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			if b.Record == nil {
				continue
			}
			kinds, ks, vs := b.Record.Column(0).(*array.String), b.Record.Column(1).(*array.String), b.Record.Column(2).(*array.String)
			for i := range kinds.Len() {
				out = append(out, kinds.Value(i)+" "+ks.Value(i)+" "+vs.Value(i))
			}
			b.Record.Release()
			n++
		}
		return out
	}
	want := []string{"+I a 1", "+I b 2", "-U a 1", "+U a 3", "-D b 2", "-U a 3", "+U a 4"}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	src := planTable(t, ddl, 1)
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	require.Equal(t, want, changes(r, -1))
	require.NoError(t, r.Close())
	for stop := range 5 {
		r, err := src.Open(mem, nil)
		require.NoError(t, err)
		first := changes(r, stop)
		var e checkpoint.Encoder
		require.NoError(t, r.(exec.StateReader).SaveState(&e))
		require.NoError(t, r.Close())
		r, err = src.Open(mem, checkpoint.NewDecoder(e.Data()))
		require.NoError(t, err)
		require.Equal(t, want, append(first, changes(r, -1)...), "stopped after %d batches", stop)
		require.NoError(t, r.Close())
	}
}

// With watermark alignment a partition is not read further ahead of the
// slowest than the max drift (give or take the batch that took it past):
// of two partitions whose events cover the same hour, the reads alternate
// instead of one partition running to its end first; without it, the
// same topic is read as the client fetches it.
func TestAlignmentKeepsPartitionsWithinTheDrift(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	var recs []kafkatest.Record
	start := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	for p := range 2 {
		for i := range 3600 {
			at := start.Add(time.Duration(i) * time.Second).Format("2006-01-02 15:04:05.000")
			recs = append(recs, kafkatest.Record{Partition: int32(p), Value: []byte(fmt.Sprintf(`{"ts":%q}`, at))})
		}
	}
	k.Produce(t, "events", recs...)
	ddl := fmt.Sprintf(`CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'events',
  'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'json', 'scan.watermark.alignment.group' = 'g', 'scan.watermark.alignment.max-drift' = '5 min')`, k.Brokers())
	src := planTable(t, ddl, 100)
	r, err := src.Open(memory.DefaultAllocator, nil)
	require.NoError(t, err)
	defer r.Close()
	latest := [2]int64{math.MinInt64, math.MinInt64}
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if b.Record == nil {
			continue
		}
		latest[b.Split] = max(latest[b.Split], latestTime(b.Record, 0))
		b.Record.Release()
		if latest[0] != math.MinInt64 && latest[1] != math.MinInt64 {
			drift := latest[0] - latest[1]
			if drift < 0 {
				drift = -drift
			}
			// 5 minutes, and a batch of 100 seconds that took it past
			require.LessOrEqual(t, drift, int64((5*60+100)*1000), "partitions 0 and 1 at %v and %v", time.UnixMilli(latest[0]).UTC(), time.UnixMilli(latest[1]).UTC())
		}
	}
	require.Greater(t, r.(*reader).pauses, 0)
}

// readRows reads an unbounded read r until it has given n rows, failing
// after a few seconds.
func readRows(t *testing.T, r exec.BatchReader, n int) []string {
	t.Helper()
	var rows []string
	deadline := time.Now().Add(10 * time.Second)
	for len(rows) < n {
		require.True(t, time.Now().Before(deadline), "got %d of %d rows: %v", len(rows), n, rows)
		got, _ := drain(t, r, 1)
		rows = append(rows, got...)
	}
	return rows
}

// Each 'scan.startup.mode' starts each partition where Flink's does:
// 'timestamp' at the first record at or after the time, 'latest-offset'
// after the records already there.
func TestReaderStartsWhereTheStartupModeSays(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events", 2)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var recs []kafkatest.Record
	for i := range 10 {
		recs = append(recs, kafkatest.Record{Partition: int32(i % 2), Value: fmt.Appendf(nil, "r%d", i), Time: start.Add(time.Duration(i) * time.Second)})
	}
	k.Produce(t, "events", recs...)
	at := start.Add(6 * time.Second).UnixMilli()
	ddl := strings.Replace(fmt.Sprintf(rawTable, k.Brokers()), "'earliest-offset'", fmt.Sprintf("'timestamp', 'scan.startup.timestamp-millis' = '%d'", at), 1)
	r, err := planTable(t, ddl, 10).Open(memory.DefaultAllocator, nil)
	require.NoError(t, err)
	rows, _ := drain(t, r, -1)
	require.NoError(t, r.Close())
	slices.Sort(rows)
	require.Equal(t, []string{"0: r6", "0: r8", "1: r7", "1: r9"}, rows)

	unbounded := strings.Replace(fmt.Sprintf(rawTable, k.Brokers()), "'scan.bounded.mode' = 'latest-offset',", "", 1)
	r, err = planTable(t, strings.Replace(unbounded, "'earliest-offset'", "'latest-offset'", 1), 10).Open(memory.DefaultAllocator, nil)
	require.NoError(t, err)
	defer r.Close()
	k.Produce(t, "events", kafkatest.Record{Partition: 1, Value: []byte("new")})
	require.Equal(t, []string{"1: new"}, readRows(t, r, 1))
}

// An unbounded read of a 'topic-pattern' finds the topics made while it
// runs, every 'scan.topic-partition-discovery.interval', and reads them
// from their start.
func TestReaderDiscoversNewTopics(t *testing.T) {
	k := kafkatest.Start(t)
	k.CreateTopic(t, "events-a", 1)
	k.Produce(t, "events-a", kafkatest.Record{Value: []byte("a")})
	ddl := strings.NewReplacer("'topic' = 'events'", "'topic-pattern' = 'events-.*', 'scan.topic-partition-discovery.interval' = '100 ms'",
		"'scan.bounded.mode' = 'latest-offset',", "").Replace(fmt.Sprintf(rawTable, k.Brokers()))
	r, err := planTable(t, ddl, 10).Open(memory.DefaultAllocator, nil)
	require.NoError(t, err)
	defer r.Close()
	require.Equal(t, []string{"0: a"}, readRows(t, r, 1))
	k.CreateTopic(t, "events-b", 2)
	k.Produce(t, "events-b", kafkatest.Record{Partition: 1, Value: []byte("b")})
	require.Equal(t, []string{"2: b"}, readRows(t, r, 1))
	require.Equal(t, 3, r.NumSplits())
}
