package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ErrLocked marks a lock another holder has: another process, or another
// open of the same file in this one.
var ErrLocked = errors.New("locked")

// LockSuffix ends the name of a checkpoint's lock file (or lock
// object), beside the checkpoint.
const LockSuffix = ".lock"

// LockedError is Lock's error when the lock is held: PID is the holder's
// process id as it wrote it into the file, 0 when unknown; Holder
// describes a holder on another host (a lease's), "" otherwise; Expires
// is when a lease not renewed meanwhile may be taken over, zero for a
// lock file.
type LockedError struct {
	Path    string
	PID     int
	Holder  string
	Expires time.Time
}

func (e *LockedError) Error() string {
	if e.Holder != "" {
		return fmt.Sprintf("%s is locked by %s", e.Path, e.Holder)
	}
	if e.PID > 0 {
		return fmt.Sprintf("%s is locked by process %d", e.Path, e.PID)
	}
	return e.Path + " is locked"
}

func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// FileLock is an exclusive lock on a lock file, held until Unlock or the
// end of the process. On systems with flock(2) the kernel releases it when
// the process ends, however it ends (even kill -9), so a lock never
// outlives its holder and never blocks a restart. The file itself stays:
// deleting it would let two processes lock two different files of one
// name.
type FileLock struct {
	f *os.File
}

// Unlocker is a lock Lock took.
type Unlocker interface{ Unlock() error }

// Lock takes the lock of the file at path (created if missing) without
// waiting: a *LockedError (errors.Is ErrLocked) when it is held. The
// holder writes its own process id into the file, for that message. A
// path in an object store is locked with a lease (ObjectLock).
func Lock(path string) (Unlocker, error) {
	var l Unlocker
	var err error
	if InObjectStore(path) {
		l, err = lockObject(path)
	} else {
		l, err = lockLocalFile(path)
	}
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return l, nil
}

func lockLocalFile(path string) (*FileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, ErrLocked) {
			locked := &LockedError{Path: path}
			if b, rerr := os.ReadFile(path); rerr == nil {
				locked.PID, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			return nil, locked
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// the holder's id, for the message of whoever is refused; the lock
	// does not depend on it
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &FileLock{f: f}, nil
}

// LockDir takes the lock of a directory itself (flock(2) on the
// directory), leaving no file in it: a *LockedError when it is held (its
// PID unknown).
func LockDir(dir string) (*FileLock, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, ErrLocked) {
			return nil, &LockedError{Path: dir}
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return &FileLock{f: f}, nil
}

// Unlock releases the lock; it is idempotent.
func (l *FileLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unlockFile(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
