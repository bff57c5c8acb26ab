package wsql

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/wsql/wsql/checkpoint"
)

// lockCheckpoint takes the inter-process lock of a query's checkpoint
// file: a lock file beside it ("<checkpoint>.lock"), held with flock(2)
// while the query runs. A second process running the same query on the
// same checkpoint directory is refused instead of resuming the same
// checkpoint and writing the same part files. The kernel releases the
// lock when its holder ends, even by kill -9, so a lock left behind never
// blocks a restart. In an object store the lock is a lease, which
// outlives a killed holder until it expires.
func lockCheckpoint(path string) (checkpoint.Unlocker, error) {
	l, err := checkpoint.Lock(path + checkpoint.LockSuffix)
	if err == nil {
		return l, nil
	}
	var locked *checkpoint.LockedError
	if !errors.As(err, &locked) {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	holder := "another process"
	switch {
	case locked.Holder != "":
		holder = "another process (" + locked.Holder + ")"
	case locked.PID == 0:
	case locked.PID == os.Getpid():
		holder = fmt.Sprintf("another engine of this process (pid %d)", locked.PID)
	default:
		holder = fmt.Sprintf("another process (pid %d)", locked.PID)
	}
	lease := ""
	if !locked.Expires.IsZero() { // in an object store, a run that died leaves its lease
		lease = fmt.Sprintf(" (if it ended without letting go, its lease expires at %s)", locked.Expires.Format(time.RFC3339))
	}
	return nil, fmt.Errorf("%s is running this query with the checkpoint %s: a checkpoint has one writer at a time; wait for that run to end%s or stop it, or give this run another checkpoint directory", holder, path, lease)
}
