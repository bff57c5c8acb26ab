package joinop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/wsql/wsql/exec/rankop"
)

// temporalKeyColumns are one input's join key columns (of the event-time
// and of the processing-time temporal join): their values
// encoded as one byte string per row (equal across the inputs for equal
// keys), a NULL in a column compared with = making no key.
type temporalKeyColumns struct {
	enc      rankop.RowKeys
	cols     []int
	nullable []bool // per column: a NULL makes no key (not IS NOT DISTINCT FROM)
	scratch  [][]byte
}

func newTemporalKeyColumns(cols []int, nullSafe []bool) temporalKeyColumns {
	k := temporalKeyColumns{enc: rankop.NewRowKeys(cols), cols: cols}
	for i := range cols {
		k.nullable = append(k.nullable, nullSafe == nil || !nullSafe[i])
	}
	return k
}

// ids writes the key of each row of rec into kids, numbering new keys in
// keys; a row without a key gets -1. The keys are encoded once per batch.
func (k *temporalKeyColumns) ids(rec arrow.RecordBatch, keys *temporalKeys, kids []int32) []int32 {
	encoded, kids := k.encode(rec, kids)
	for i, kid := range kids {
		if kid == 0 {
			kids[i] = keys.id(encoded[i])
		}
	}
	return kids
}

// encode encodes the key of each row of rec, returning the encoded keys
// (valid until the next call) and marks: -1 for a row without a key, 0
// for the others.
func (k *temporalKeyColumns) encode(rec arrow.RecordBatch, marks []int32) ([][]byte, []int32) {
	n := int(rec.NumRows())
	for len(k.scratch) < n {
		k.scratch = append(k.scratch, nil)
	}
	k.enc.Encode(rec, k.scratch)
	marks = marks[:0]
	for i := 0; i < n; i++ {
		marks = append(marks, 0)
	}
	for c, col := range k.cols {
		a := rec.Column(col)
		if !k.nullable[c] || a.NullN() == 0 {
			continue
		}
		valid, off := a.Data().Buffers()[0].Bytes(), a.Data().Offset()
		for i := range marks {
			if !bitutil.BitIsSet(valid, off+i) {
				marks[i] = -1
			}
		}
	}
	return k.scratch[:n], marks
}

// temporalKeys numbers the join keys seen 0, 1, ... and holds each one's
// state. A key whose state is empty is forgotten and its number reused, so
// the keys of probe rows that found nothing take no memory.
type temporalKeys struct {
	byKey map[string]int32
	names []string      // by number: the encoded key ("" once forgotten)
	state []temporalKey // by number
	free  []int32
}

func newTemporalKeys() temporalKeys { return temporalKeys{byKey: map[string]int32{}} }

// id is the number of an encoded key, a new one for a new key.
func (x *temporalKeys) id(key []byte) int32 {
	if id, ok := x.byKey[string(key)]; ok {
		return id
	}
	return x.add(string(key))
}

func (x *temporalKeys) add(name string) int32 {
	var id int32
	if n := len(x.free); n > 0 {
		id = x.free[n-1]
		x.free = x.free[:n-1]
		x.names[id] = name
		x.state[id] = temporalKey{rightTimer: noTimer, versions: x.state[id].versions[:0]}
	} else {
		id = int32(len(x.names))
		x.names = append(x.names, name)
		x.state = append(x.state, temporalKey{rightTimer: noTimer})
	}
	x.byKey[name] = id
	return id
}

// forgetIfIdle forgets key id when it has no version, no waiting probe
// row and no timer.
func (x *temporalKeys) forgetIfIdle(id int32) {
	ks := &x.state[id]
	if len(ks.versions) > 0 || ks.probes > 0 || ks.rightTimer != noTimer {
		return
	}
	delete(x.byKey, x.names[id])
	x.names[id] = ""
	x.free = append(x.free, id)
}

// temporalKey is one key's state: its versions by time, its probe rows
// waiting and the timer of its right rows.
type temporalKey struct {
	versions []version
	probes   int32
	// rightTimer is the smallest time of the right rows come since the key
	// last fired (Flink's timer, registered by right rows), noTimer if none
	rightTimer int64
	fired      uint64 // the last firing that fired the key
}

// version is a right row valid from its time until the next version's;
// a retraction (-U, -D) is valid for no row.
type version struct {
	time    int64
	id      int32 // its row in the right store
	retract bool
}

// put adds version v, replacing the version of its time, whose row id it
// returns (-1 when none).
func (k *temporalKey) put(v version) int32 {
	n := len(k.versions)
	if n == 0 || k.versions[n-1].time < v.time {
		k.versions = append(k.versions, v)
		return -1
	}
	i := k.search(v.time)
	if k.versions[i].time == v.time {
		old := k.versions[i].id
		k.versions[i] = v
		return old
	}
	k.versions = append(k.versions, version{})
	copy(k.versions[i+1:], k.versions[i:])
	k.versions[i] = v
	return -1
}

// search is the index of the first version of time >= t.
func (k *temporalKey) search(t int64) int {
	lo, hi := 0, len(k.versions)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if k.versions[m].time < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// at is the index of the version valid at time t: the latest of time <=
// t, or -1 when every version is later.
func (k *temporalKey) at(t int64) int {
	n := len(k.versions)
	if n > 0 && k.versions[n-1].time <= t {
		return n - 1 // the common case: the probe is newer than every version
	}
	return k.search(t+1) - 1
}

// cleanUp drops the versions no probe row can find any more once the
// watermark is wm (those older than the version valid at wm), appending
// their row ids to gone, and the key's timer, which fired. As Flink, it
// keeps the version valid at wm even when it is a retraction: a right row
// coming late, older than it, must not become valid past it.
func (k *temporalKey) cleanUp(wm int64, gone []int32) []int32 {
	k.rightTimer = noTimer
	i := k.at(wm)
	if i <= 0 {
		return gone
	}
	for _, v := range k.versions[:i] {
		gone = append(gone, v.id)
	}
	n := copy(k.versions, k.versions[i:])
	k.versions = k.versions[:n]
	return gone
}
