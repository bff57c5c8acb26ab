//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// The status page, loaded in headless Chromium while a query runs, shows
// the query, its plan and its two charts with points drawn from the
// samples; a PNG screenshot of it goes to $WSQL_TEST_ARTIFACTS (or a
// temporary directory).
func TestServeStatusPageInChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium, as .ci/run does): the status page is not tested in a browser")
	}
	c := startServed(t)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1200, 1100))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(c.base+"/")))
	const card = `section.query[data-query="1"] `
	// a second sample gives each chart a line
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`(() => {
		const points = (kind) => Number(document.querySelector('`+card+`svg[data-chart="' + kind + '"]')?.getAttribute("data-points") || 0);
		return points("rps") >= 2 && points("lag") >= 2;
	})()`, chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(time.Minute)))
	require.NoError(t, err, "stderr:\n%s", c.errors(t))

	sql, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(card+"pre.sql")))
	require.NoError(t, err)
	require.Equal(t, "SELECT usr, COUNT(*) AS clicks FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' SECOND)", sql)
	plan, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(card+"pre.plan")))
	require.NoError(t, err)
	require.Contains(t, plan, "WindowAggregate(window=[TUMBLE(size=1 s)]")
	require.Contains(t, plan, "TableSourceScan(table=[clicks], connector=[datagen]")
	state, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(card+".state")))
	require.NoError(t, err)
	require.Equal(t, "running", state)
	health, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#health")))
	require.NoError(t, err)
	require.Equal(t, "ok", health)
	for _, chart := range []string{"rps", "lag"} {
		pairs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelector('`+card+`svg[data-chart="`+chart+`"] polyline').getAttribute("points").trim().split(/\s+/).length`))
		require.NoError(t, err)
		require.GreaterOrEqual(t, pairs, 2, "the %s chart's line", chart)
	}

	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // quality 100 is PNG
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")), "a PNG")
	dir := os.Getenv("WSQL_TEST_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, "status-page.png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot of the status page: %s", path)
	c.stop(t)
}
