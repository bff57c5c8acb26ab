package wsql

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
	"github.com/wsql/wsql/internal/golden"
)

// TestKafkaEndToEnd runs each script of testdata/kafka against a Kafka
// cluster of three brokers started for it: the .records file beside the
// script makes its topics and records ("create TOPIC PARTITIONS", then
// "TOPIC PARTITION KEY VALUE [MILLIS]" with '-' for no key or value and
// \n for a line break, fields separated by tabs) and names the topics read back after the run ("read
// TOPIC"). A run's rows come in the order the partitions were polled, so
// the output is compared sorted; it must be the same at batch sizes 1 and
// 4096, and is the golden .out. A script that names ${registry} gets a
// schema registry (kafkatest.StartRegistry); "subject NAME" in its records
// file prints the latest schema registered under NAME after the run. A
// message that is not printable text is shown as 0x and its bytes in hex.
func TestKafkaEndToEnd(t *testing.T) {
	scripts, err := filepath.Glob("testdata/kafka/*.sql")
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	for _, path := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			records := strings.TrimSuffix(path, ".sql") + ".records"
			var outputs []string
			for _, size := range []int{1, 4096} {
				outputs = append(outputs, runKafkaScript(t, string(src), records, size))
			}
			require.Equal(t, outputs[1], outputs[0], "batch size 1 differs from 4096")
			golden.Check(t, strings.TrimSuffix(path, ".sql")+".out", outputs[1])
		})
	}
}

// runKafkaScript fills a new cluster as the records file says, runs src
// against it and returns the sorted output with the topics read back.
func runKafkaScript(t *testing.T, src, recordsPath string, batchSize int) string {
	k := kafkatest.Start(t)
	f, err := os.Open(recordsPath)
	require.NoError(t, err)
	defer f.Close()
	var read, subjects []string
	var reg *kafkatest.Registry
	if strings.Contains(src, "${registry}") {
		reg = kafkatest.StartRegistry(t)
		src = strings.ReplaceAll(src, "${registry}", reg.URL())
	}
	byTopic := map[string][]kafkatest.Record{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		switch fields[0] {
		case "create":
			n, err := strconv.Atoi(fields[2])
			require.NoError(t, err, line)
			k.CreateTopic(t, fields[1], n)
		case "read":
			read = append(read, fields[1])
		case "subject":
			subjects = append(subjects, fields[1])
		default:
			require.GreaterOrEqual(t, len(fields), 4, "a record line: %q", line)
			p, err := strconv.Atoi(fields[1])
			require.NoError(t, err, line)
			r := kafkatest.Record{Partition: int32(p), Value: []byte(strings.ReplaceAll(fields[3], `\n`, "\n"))}
			if fields[2] != "-" {
				r.Key = []byte(fields[2])
			}
			if fields[3] == "-" {
				r.Value = nil
			}
			if len(fields) > 4 {
				ms, err := strconv.ParseInt(fields[4], 10, 64)
				require.NoError(t, err, line)
				r.Time = time.UnixMilli(ms)
			}
			if _, ok := byTopic[fields[0]]; !ok {
				order = append(order, fields[0])
			}
			byTopic[fields[0]] = append(byTopic[fields[0]], r)
		}
	}
	require.NoError(t, sc.Err())
	for _, topic := range order {
		k.Produce(t, topic, byTopic[topic]...)
	}
	out := runScript(t, strings.ReplaceAll(src, "${brokers}", k.Brokers()), batchSize)
	lines := sortedLines(strings.TrimRight(out, "\n"))
	for _, topic := range read {
		var msgs []string
		for _, r := range k.ReadAll(t, topic) {
			key := "-"
			if r.Key != nil {
				key = shownMessage(r.Key)
			}
			msgs = append(msgs, fmt.Sprintf("%s\t%s\t%s", topic, key, shownMessage(r.Value)))
		}
		slices.Sort(msgs)
		lines = append(lines, fmt.Sprintf("-- topic %s: %d messages", topic, len(msgs)))
		lines = append(lines, msgs...)
	}
	for _, subject := range subjects {
		schema, id, ok := reg.Latest(subject)
		require.True(t, ok, "no schema registered under subject %s", subject)
		lines = append(lines, fmt.Sprintf("-- subject %s: id %d", subject, id), schema)
	}
	return strings.Join(lines, "\n") + "\n"
}

// shownMessage is a message as text, or 0x and its bytes in hex when it
// is not printable text (Avro).
func shownMessage(b []byte) string {
	if utf8.Valid(b) && !strings.ContainsFunc(string(b), func(r rune) bool { return r < ' ' }) {
		return string(b)
	}
	return "0x" + hex.EncodeToString(b)
}
