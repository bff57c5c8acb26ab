package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// After Ctrl-C the summary line counts at least the rows the status line
// showed read, also when the WHERE passed none of them.
func TestShellSummaryAfterCtrlCCountsTheRowsRead(t *testing.T) {
	if testing.Short() {
		t.Skip("runs wsql on a pseudo-terminal")
	}
	bin, root := wsqlBinary(t)
	s := startShell(t, bin, root, filepath.Join(t.TempDir(), "history"))
	s.expect(prompt, ptyWait)
	s.line(`CREATE TABLE gen (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000', 'fields.x.min' = '1', 'fields.x.max' = '9');`)
	s.expect(prompt, ptyWait)
	s.line(`SELECT x FROM gen WHERE x > 100;`)

	status := regexp.MustCompile(`(\d+) rows \(\d+ rows/s\)`)
	shown := 0
	for deadline := time.Now().Add(ptyWait); shown == 0; time.Sleep(10 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "no status line with rows read")
		s.mu.Lock()
		all := status.FindAllStringSubmatch(s.out.String()[s.seen:], -1)
		s.mu.Unlock()
		if len(all) > 0 {
			shown, _ = strconv.Atoi(all[len(all)-1][1])
		}
	}
	s.send(keyCtrlC)
	s.expect("wsql: query cancelled", ptyWait)
	s.mu.Lock()
	summary := regexp.MustCompile(`wsql: (\d+) rows read, 0 late rows dropped, 0 bad rows skipped, 0 result rows`).FindStringSubmatch(s.out.String())
	s.mu.Unlock()
	require.NotNil(t, summary, "no summary line")
	read, _ := strconv.Atoi(summary[1])
	require.GreaterOrEqual(t, read, shown, "the summary counts fewer rows than the status line showed")
	s.expect(prompt, ptyWait)
}
