package procstat

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestChildUsageOfAnEndedChild: a child that ran reports a peak RSS (on
// the systems that give one) and a CPU time that is not negative.
func TestChildUsageOfAnEndedChild(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(self, "-test.run", "^$")
	require.NoError(t, cmd.Run())
	rss, cpu, ok := ChildUsage(cmd.ProcessState)
	require.GreaterOrEqual(t, cpu, time.Duration(0))
	if runtime.GOOS == "linux" {
		require.True(t, ok)
		require.Greater(t, rss, int64(1<<20), "a Go test binary takes more than 1 MiB")
	}
}

// TestCPUModelOnLinux: /proc/cpuinfo names the model on Linux/amd64.
func TestCPUModelOnLinux(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("model name is in /proc/cpuinfo on Linux/amd64")
	}
	require.NotEmpty(t, CPUModel())
}
