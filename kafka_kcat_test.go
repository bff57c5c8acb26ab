package wsql

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/kafka/kafkatest"
)

// kcat produces records into a topic and reads wsql's results back from
// the same cluster: another client (librdkafka) sees what wsql writes, and
// wsql reads what it writes. Debian's kcat, which .ci/run installs.
func TestKafkaWithKcat(t *testing.T) {
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		t.Skip("kcat is not installed (Debian's kcat package; .ci/run installs it)")
	}
	k := kafkatest.Start(t)
	k.CreateTopic(t, "trips", 2)
	k.CreateTopic(t, "fares", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	input := strings.Join([]string{
		`{"city":"oslo","fare":12.5,"ts":"2024-03-01 09:00:01.000"}`,
		`{"city":"rome","fare":30.0,"ts":"2024-03-01 09:00:02.000"}`,
		`{"city":"oslo","fare":7.5,"ts":"2024-03-01 09:00:40.000"}`,
		`{"city":"rome","fare":10.0,"ts":"2024-03-01 09:01:05.000"}`,
	}, "\n") + "\n"
	for p, lines := range []string{input, `{"city":"oslo","fare":1.0,"ts":"2024-03-01 09:02:00.000"}` + "\n"} {
		cmd := exec.CommandContext(ctx, kcat, "-b", k.Brokers(), "-t", "trips", "-p", []string{"0", "1"}[p], "-P")
		cmd.Stdin = strings.NewReader(lines)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "kcat -P: %s", out)
	}
	src := `CREATE TABLE trips (city STRING, fare DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (
  'connector' = 'kafka', 'topic' = 'trips', 'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE fares (city STRING, minute_start TIMESTAMP(3), total DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = 'fares', 'properties.bootstrap.servers' = '${brokers}',
  'key.format' = 'raw', 'key.fields' = 'city', 'format' = 'csv');
INSERT INTO fares SELECT city, TUMBLE_START(ts, INTERVAL '1' MINUTE), SUM(fare)
FROM trips GROUP BY city, TUMBLE(ts, INTERVAL '1' MINUTE);
`
	out := runScript(t, strings.ReplaceAll(src, "${brokers}", k.Brokers()), 4096)
	require.Contains(t, out, "5 rows read, 0 late rows dropped, 0 bad rows skipped, 4 result rows", out)
	cmd := exec.CommandContext(ctx, kcat, "-b", k.Brokers(), "-t", "fares", "-C", "-o", "beginning", "-e", "-q", "-f", "%k|%s\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "kcat -C: %s", stderr.String())
	got := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	slices.Sort(got)
	require.Equal(t, []string{
		"oslo|oslo,2024-03-01 09:00:00.000,20.0",
		"oslo|oslo,2024-03-01 09:02:00.000,1.0",
		"rome|rome,2024-03-01 09:00:00.000,30.0",
		"rome|rome,2024-03-01 09:01:00.000,10.0",
	}, got)
}
