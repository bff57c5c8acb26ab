package checkpoint

import (
	"errors"
	"fmt"
	"sync"

	"github.com/wsql/wsql/checkpoint/objectstore"
)

// leases are the leases this process holds on checkpoints in an object
// store, by the lock object's URL: a checkpoint is written only while
// its writer's lease is valid.
var leases sync.Map

// ObjectLock is a lock taken on a lock object in an object store: a
// lease (objectstore.Lease), renewed until Unlock.
type ObjectLock struct {
	url   string
	lease *objectstore.Lease
}

func lockObject(url string) (*ObjectLock, error) {
	lease, err := objectstore.Acquire(url, objectstore.Self())
	if err != nil {
		var held *objectstore.HeldError
		if errors.As(err, &held) {
			locked := &LockedError{Path: url, Expires: held.Expires}
			if self := objectstore.Self(); held.Holder.Host == self.Host {
				locked.PID = held.Holder.PID
			} else {
				locked.Holder = held.Holder.String()
			}
			return nil, locked
		}
		return nil, fmt.Errorf("taking its lease: %w", err) // err names the lock object
	}
	leases.Store(url, lease)
	return &ObjectLock{url: url, lease: lease}, nil
}

// Unlock releases the lease; it is idempotent.
func (l *ObjectLock) Unlock() error {
	leases.CompareAndDelete(l.url, l.lease)
	return l.lease.Release()
}

// saveObject writes a checkpoint object, once its writer's lease (of
// the lock object beside it) is known to be still its own: a run whose
// lease was taken over must not overwrite the new holder's checkpoint.
func saveObject(url string, b []byte) error {
	if lease, ok := leases.Load(url + LockSuffix); ok {
		if err := lease.(*objectstore.Lease).Valid(); err != nil {
			return fmt.Errorf("checkpoint %s not written: %w", url, err)
		}
	}
	if err := objectstore.Put(url, b); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}
