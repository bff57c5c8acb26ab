package lookup

import (
	"fmt"
	"strings"
	"time"

	"github.com/wsql/wsql/rowtime"
)

// CacheOptions are a lookup join's cache of rows by key, as Flink's
// 'lookup.cache' options set it.
type CacheOptions struct {
	// Partial: keys are cached ('lookup.cache' = 'PARTIAL'); otherwise
	// every batch queries all its keys ('NONE').
	Partial bool
	// MaxRows bounds the rows held (a key without rows counts one); 0:
	// no bound.
	MaxRows int64
	// ExpireAfterWrite and ExpireAfterAccess let a key go that long after
	// its rows were fetched, or were last read; 0: never.
	ExpireAfterWrite, ExpireAfterAccess time.Duration
	// CacheMissingKey keeps a key without rows, so it is not asked again.
	CacheMissingKey bool
}

// String is the options as EXPLAIN shows them.
func (o CacheOptions) String() string {
	if !o.Partial {
		return "NONE"
	}
	parts := []string{"PARTIAL"}
	if o.MaxRows > 0 {
		parts = append(parts, fmt.Sprintf("max-rows=%d", o.MaxRows))
	}
	if o.ExpireAfterWrite > 0 {
		parts = append(parts, "expire-after-write="+rowtime.DurationText(o.ExpireAfterWrite))
	}
	if o.ExpireAfterAccess > 0 {
		parts = append(parts, "expire-after-access="+rowtime.DurationText(o.ExpireAfterAccess))
	}
	parts = append(parts, fmt.Sprintf("cache-missing-key=%t", o.CacheMissingKey))
	return strings.Join(parts, ", ")
}
