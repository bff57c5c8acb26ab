package wsql

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An EXCEPT ALL of two followed tables stops at a checkpoint and resumes
// from it: the union's read positions and held rows and the counts per
// row and side are restored, and the committed changes are those of one
// uninterrupted run.
func TestExceptAllResumesFromCheckpoint(t *testing.T) {
	at := func(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000") }
	var shop, web []string
	for i := range 200 {
		shop = append(shop, fmt.Sprintf("%s,u%d,%d", at(int64(i)*97), i%7, i%3))
	}
	for i := range 150 {
		web = append(web, fmt.Sprintf("%s,u%d,%d", at(int64(i)*130+20), i%5, i%3))
	}
	script := `CREATE TABLE shop (ts TIMESTAMP(3), usr STRING, n INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/shop', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
CREATE TABLE web (ts TIMESTAMP(3), usr STRING, n INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'DIR/web', 'format' = 'csv', 'source.monitor-interval' = '5 ms');
CREATE TABLE results (usr STRING, n INT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/out', 'format' = 'debezium-json');
INSERT INTO results SELECT usr, n FROM shop EXCEPT ALL SELECT usr, n FROM web;
`
	runUntil := func(dir string, n int64) []string {
		notices, err := runCheckpointedUntil(t, dir, script, n, WithBatchSize(8))
		require.ErrorIs(t, err, context.Canceled)
		return notices
	}

	ref := tableFiles(t, "shop", shop, "web", web)
	runUntil(ref, 350)
	want := changeFiles(t, ref)
	require.True(t, strings.Contains(want, `"op":"d"`), "right rows take copies away")

	dir := tableFiles(t, "shop", shop[:120], "web", web[:60])
	notices := runUntil(dir, 180)
	require.Regexp(t, `stopped; checkpoint \d+ is in`, strings.Join(notices, "\n"))
	writeTableFile(t, dir, "shop", shop[120:], os.O_APPEND)
	writeTableFile(t, dir, "web", web[60:], os.O_APPEND)
	notices = runUntil(dir, 350)
	require.Contains(t, strings.Join(notices, "\n"), "resuming query 1")
	require.Equal(t, want, changeFiles(t, dir))
}
