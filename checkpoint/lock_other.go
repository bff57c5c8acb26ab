//go:build !unix

package checkpoint

import (
	"os"
	"path/filepath"
	"sync"
)

// Without flock(2) the lock covers the holders in this process only: by
// the file's absolute path.
var held sync.Map

func lockFile(f *os.File) error {
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return err
	}
	if _, busy := held.LoadOrStore(abs, true); busy {
		return ErrLocked
	}
	return nil
}

func unlockFile(f *os.File) error {
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return err
	}
	held.Delete(abs)
	return nil
}
