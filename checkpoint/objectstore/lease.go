package objectstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
)

// LeaseDuration is how long a lease lasts unless its holder renews it;
// the holder renews it every third of that.
const LeaseDuration = 30 * time.Second

// errConflict is a conditional PUT refused: the object is not as the
// condition said (created, or changed, by another writer meanwhile).
var errConflict = errors.New("changed by another writer")

// Holder says who holds a lease, for the message of whoever is refused.
type Holder struct {
	Host string `json:"host"`
	PID  int    `json:"pid"`
}

// Self is this process as a lease holder.
func Self() Holder {
	host, _ := os.Hostname()
	return Holder{Host: host, PID: os.Getpid()}
}

func (h Holder) String() string { return fmt.Sprintf("process %d on %s", h.PID, h.Host) }

// leaseBody is the content of a lease object.
type leaseBody struct {
	Holder
	Expires time.Time `json:"expires"`
}

// HeldError is Acquire's error when another holder's lease is current.
type HeldError struct {
	URL     string
	Holder  Holder
	Expires time.Time
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s is held by %s until %s", e.URL, e.Holder, e.Expires.Format(time.RFC3339))
}

// Lease is the one-writer lock of a checkpoint in an object store: the
// lock object exists while someone holds it. Acquire creates it only if
// absent (If-None-Match: *), so of two processes racing one wins. The
// holder rewrites it with a later expiry every third of its duration,
// each write conditional on the ETag of its own last write, so a holder
// whose lease was taken over learns it on its next renewal. A lease past
// its expiry, whose holder stopped without releasing it (a crash, kill
// -9, a lost network), is taken over by a PUT conditional on the stale
// ETag: of two processes taking it over, one wins.
//
// The guarantee rests on the hosts' clocks agreeing to well within the
// duration: a holder cut off from the store stops being Valid by its own
// clock before another process may take its lease by that process's.
type Lease struct {
	url      string
	holder   Holder
	duration time.Duration

	mu    sync.Mutex
	etag  string    // of our last write of the lock object
	until time.Time // by our clock: our last renewal's start plus duration
	lost  error     // set when another holder took the lease over

	stop    chan struct{}
	done    chan struct{}
	release sync.Once
	err     error // Release's
}

// Acquire takes the lease of the lock object url for LeaseDuration and
// keeps it renewed until Release: a *HeldError when another holder's
// lease is current.
func Acquire(url string, holder Holder) (*Lease, error) {
	return AcquireFor(url, holder, LeaseDuration)
}

// AcquireFor is Acquire with a lease of another duration (tests expire
// theirs in moments).
func AcquireFor(url string, holder Holder, duration time.Duration) (*Lease, error) {
	l := &Lease{url: url, holder: holder, duration: duration, stop: make(chan struct{}), done: make(chan struct{})}
	if err := l.take(); err != nil {
		return nil, err
	}
	go l.renewals()
	return l, nil
}

// take creates the lock object, or takes over an expired one.
func (l *Lease) take() error {
	for range 3 { // the object may come and go between our requests
		err := l.write("*")
		if !errors.Is(err, errConflict) {
			return err
		}
		b, etag, err := get(l.url)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return err
		}
		var cur leaseBody
		if json.Unmarshal(b, &cur) != nil {
			return fmt.Errorf("%s: not a lease (want JSON with a holder and an expiry); remove it if no run holds it", l.url)
		}
		if time.Now().Before(cur.Expires) {
			return &HeldError{URL: l.url, Holder: cur.Holder, Expires: cur.Expires}
		}
		err = l.write(etag)
		if !errors.Is(err, errConflict) {
			return err
		}
	}
	return fmt.Errorf("%s: %w again and again; try again", l.url, errConflict)
}

// write puts the lease with a new expiry, conditional on the object's
// ETag being match, or for match "*" on there being no object.
func (l *Lease) write(match string) error {
	start := time.Now()
	b, err := json.Marshal(leaseBody{Holder: l.holder, Expires: start.Add(l.duration)})
	if err != nil {
		return err
	}
	var opts minio.PutObjectOptions
	if match == "*" {
		opts.SetMatchETagExcept("*")
	} else {
		opts.SetMatchETag(match)
	}
	etag, err := put(l.url, b, opts)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.etag, l.until = etag, start.Add(l.duration)
	l.mu.Unlock()
	return nil
}

// renewals renews the lease every third of its duration until Release
// or until another holder took it over. A failed renewal is retried at
// the next tick; the lease stays Valid until it would have expired.
func (l *Lease) renewals() {
	defer close(l.done)
	t := time.NewTicker(l.duration / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		etag := l.etag
		l.mu.Unlock()
		if err := l.write(etag); errors.Is(err, errConflict) || errors.Is(err, fs.ErrNotExist) {
			l.mu.Lock()
			l.lost = fmt.Errorf("%s was taken over by another process: this run no longer holds it", l.url)
			l.mu.Unlock()
			return
		}
	}
}

// Valid is nil while the lease is ours: not taken over, and renewed
// within its duration by our clock.
func (l *Lease) Valid() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.lost != nil:
		return l.lost
	case time.Now().After(l.until):
		return fmt.Errorf("%s: the lease expired at %s without a renewal reaching the store", l.url, l.until.Format(time.RFC3339))
	}
	return nil
}

// Release stops the renewals and deletes the lock object if it is still
// ours, so the next holder need not wait for it to expire. It is
// idempotent.
func (l *Lease) Release() error {
	l.release.Do(func() {
		close(l.stop)
		<-l.done
		l.err = l.remove()
	})
	return l.err
}

// remove deletes the lock object unless another holder has it now.
func (l *Lease) remove() error {
	l.mu.Lock()
	lost := l.lost
	l.mu.Unlock()
	if lost != nil {
		return nil // the object is the new holder's
	}
	_, etag, err := get(l.url)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	l.mu.Lock()
	ours := etag == l.etag
	l.mu.Unlock()
	if !ours {
		return nil
	}
	return Remove(l.url)
}
