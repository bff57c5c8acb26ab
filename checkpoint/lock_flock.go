//go:build unix

package checkpoint

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes flock(2) LOCK_EX|LOCK_NB on f. flock locks belong to the
// open file, so a second open of the same path conflicts even within one
// process.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrLocked
		default:
			return err
		}
	}
}

func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
