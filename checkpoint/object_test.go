package checkpoint

import (
	"io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint/objectstore"
	"github.com/wsql/wsql/internal/s3test"
)

func TestSaveLoadObject(t *testing.T) {
	s3test.Start(t)
	path := Join("s3://"+s3test.Bucket+"/ckpt/", "query-1-abc.ckpt")
	require.Equal(t, "s3://bucket/ckpt/query-1-abc.ckpt", path)
	require.Equal(t, "s3://bucket/ckpt", Dir(path))
	require.Equal(t, "/ckpt", Dir(Join("/ckpt", "query-1-abc.ckpt")))
	_, err := Load(path)
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.NoError(t, MakeDir("s3://bucket/ckpt"))

	s := &Snapshot{ID: 3, Query: "q", Parts: map[string][]byte{"a": {1}}}
	n, err := Write(path, s)
	require.NoError(t, err)
	got, err := Load(path)
	require.NoError(t, err)
	require.Equal(t, uint64(3), got.ID)
	require.Equal(t, []byte{1}, got.Parts["a"])
	b, err := objectstore.Get(path)
	require.NoError(t, err)
	require.Len(t, b, n)

	names, err := List("s3://bucket/ckpt")
	require.NoError(t, err)
	require.Equal(t, []string{"query-1-abc.ckpt"}, names)
}

func TestLoadRefusesACorruptObject(t *testing.T) {
	s3test.Start(t)
	path := "s3://bucket/ckpt/query-1-abc.ckpt"
	require.NoError(t, Save(path, &Snapshot{ID: 1, Query: "q"}))
	b, err := objectstore.Get(path)
	require.NoError(t, err)
	b[len(b)/2] ^= 0x20
	require.NoError(t, objectstore.Put(path, b))
	_, err = Load(path)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "checkpoint s3://bucket/ckpt/query-1-abc.ckpt: corrupt checkpoint")
}

// The lock of a checkpoint in an object store is a lease: one holder at a
// time, free again once released.
func TestLockObject(t *testing.T) {
	s3test.Start(t)
	path := "s3://bucket/ckpt/query-1-abc.ckpt"
	l, err := Lock(path + LockSuffix)
	require.NoError(t, err)
	_, err = Lock(path + LockSuffix)
	require.ErrorIs(t, err, ErrLocked)
	var locked *LockedError
	require.ErrorAs(t, err, &locked)
	require.Equal(t, objectstore.Self().PID, locked.PID, "a holder on this host is named by its pid")
	require.NoError(t, Save(path, &Snapshot{ID: 1}), "saved while the lease is held")
	require.NoError(t, l.Unlock())
	require.NoError(t, l.Unlock())
	l, err = Lock(path + LockSuffix)
	require.NoError(t, err)
	require.NoError(t, l.Unlock())
}

// A writer whose lease is no longer its own writes no checkpoint.
func TestSaveRefusedWithoutTheLease(t *testing.T) {
	s3test.Start(t)
	path := "s3://bucket/ckpt/query-1-abc.ckpt"
	lease, err := objectstore.AcquireFor(path+LockSuffix, objectstore.Self(), 300*time.Millisecond)
	require.NoError(t, err)
	leases.Store(path+LockSuffix, lease)
	defer leases.Delete(path + LockSuffix)
	require.NoError(t, objectstore.Put(path+LockSuffix, []byte(`{"host":"elsewhere","pid":2,"expires":"2999-01-01T00:00:00Z"}`)))
	require.Eventually(t, func() bool { return lease.Valid() != nil }, 3*time.Second, 10*time.Millisecond)
	err = Save(path, &Snapshot{ID: 2})
	require.ErrorContains(t, err, "checkpoint s3://bucket/ckpt/query-1-abc.ckpt not written")
	require.ErrorContains(t, err, "taken over by another process")
	require.NoError(t, lease.Release())
}
