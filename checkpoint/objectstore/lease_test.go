package objectstore

import (
	"io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/s3test"
)

var (
	first  = Holder{Host: "host-a", PID: 1}
	second = Holder{Host: "host-b", PID: 2}
)

func TestLeaseHasOneHolder(t *testing.T) {
	s3test.Start(t)
	url := "s3://bucket/ckpt/q.ckpt.lock"
	a, err := Acquire(url, first)
	require.NoError(t, err)
	require.NoError(t, a.Valid())

	_, err = Acquire(url, second)
	var held *HeldError
	require.ErrorAs(t, err, &held)
	require.Equal(t, first, held.Holder)
	require.ErrorContains(t, err, "s3://bucket/ckpt/q.ckpt.lock is held by process 1 on host-a")

	require.NoError(t, a.Release())
	require.NoError(t, a.Release(), "idempotent")
	_, err = Get(url)
	require.ErrorIs(t, err, fs.ErrNotExist, "release deletes the lock object")

	b, err := Acquire(url, second)
	require.NoError(t, err, "released: the next holder takes it at once")
	require.NoError(t, b.Release())
}

// A holder that renews keeps its lease past the duration; one that stops
// renewing (a crash) loses it to the next once it expires.
func TestLeaseRenewedAndTakenOverOnceExpired(t *testing.T) {
	s3test.Start(t)
	url := "s3://bucket/ckpt/q.ckpt.lock"
	const d = 600 * time.Millisecond
	a, err := AcquireFor(url, first, d)
	require.NoError(t, err)
	time.Sleep(2 * d)
	_, err = AcquireFor(url, second, d)
	require.ErrorAs(t, err, new(*HeldError), "renewed, so still held")
	require.NoError(t, a.Valid())

	// a crash: the renewals stop, the object stays
	close(a.stop)
	<-a.done
	var b *Lease
	require.Eventually(t, func() bool {
		b, err = AcquireFor(url, second, d)
		return err == nil
	}, 5*d, d/10, "taken over once expired")
	require.Error(t, a.Valid(), "the crashed holder's lease is no longer valid")
	require.NoError(t, b.Valid())

	// the old holder's release leaves the new holder's object alone
	a.release.Do(func() { a.err = a.remove() })
	require.NoError(t, a.err)
	_, err = Get(url)
	require.NoError(t, err, "the new holder's lock object stays")
	require.NoError(t, b.Release())
}

// A holder whose lease was taken over (it was cut off from the store for
// longer than the duration) learns it at its next renewal.
func TestLeaseTakenOverIsLost(t *testing.T) {
	s3test.Start(t)
	url := "s3://bucket/ckpt/q.ckpt.lock"
	const d = 600 * time.Millisecond
	a, err := AcquireFor(url, first, d)
	require.NoError(t, err)
	// another process overwrites the lock object behind the holder's back
	require.NoError(t, Put(url, []byte(`{"host":"host-b","pid":2,"expires":"2999-01-01T00:00:00Z"}`)))
	require.Eventually(t, func() bool { return a.Valid() != nil }, 5*d, d/10)
	require.ErrorContains(t, a.Valid(), "taken over by another process")
	require.NoError(t, a.Release())
	_, err = Get(url)
	require.NoError(t, err, "the other holder's lock object stays")
}

func TestLeaseRefusesAForeignObject(t *testing.T) {
	s3test.Start(t)
	url := "s3://bucket/ckpt/q.ckpt.lock"
	require.NoError(t, Put(url, []byte("not json")))
	_, err := Acquire(url, first)
	require.ErrorContains(t, err, "s3://bucket/ckpt/q.ckpt.lock: not a lease")
}
