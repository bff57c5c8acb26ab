package windowop

import "github.com/wsql/wsql/rowtime"

// stateTTL is 'table.exec.state.ttl' for state kept by key without a
// window to clean it: each key's last row in processing time, read once a
// batch. A key is dropped when its next row comes after the TTL, and all
// keys are swept once per TTL so that keys that never come back go too.
type stateTTL struct {
	last      []int64 // by key: processing time of its last row
	lastSweep int64
}

// visit expires the keys of a batch's rows whose state is older than the
// TTL (calling expire), sweeps every key once per TTL, and marks the
// batch's keys as seen now.
func (t *stateTTL) visit(cfg GroupConfig, keys int, batch []uint32, expire func(uint32)) {
	clock := cfg.Clock
	if clock == nil {
		clock = rowtime.SystemClock{}
	}
	now := clock.Now().UnixMilli()
	for len(t.last) < keys {
		t.last = append(t.last, now)
	}
	if now-t.lastSweep >= cfg.StateTTL {
		for k, at := range t.last {
			if now-at > cfg.StateTTL {
				expire(uint32(k))
			}
		}
		t.lastSweep = now
	}
	for _, k := range batch {
		if now-t.last[k] > cfg.StateTTL {
			expire(k)
		}
		t.last[k] = now
	}
}
