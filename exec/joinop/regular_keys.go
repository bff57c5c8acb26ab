package joinop

import (
	"bytes"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/exec/strkeys"
)

// joinKeys numbers the join keys of both inputs as groups 1, 2, ...: a
// left and a right row of the same group have equal keys, so one lookup
// per row finds both sides' rows of its key. Group 0 holds the rows whose
// key has a NULL where NULL matches nothing: kept (an outer row is
// retracted padded later), never matched. A single INT, BIGINT (the
// Nexmark joins' keys) or STRING key is looked up by value; any other by
// its encoded bytes.
type joinKeys struct {
	cols     [2][]int
	nullSafe []bool
	typed    bool // one INT, BIGINT or STRING key, looked up by value
	ints     map[int64]int32
	small    []int32          // keys isSmall looks up: group by value (0: none yet)
	strs     map[string]int32 // encoded keys
	strTyped bool
	strIndex *strkeys.Index // STRING keys (typed)
	enc      [2]rankop.RowKeys
	bufs     [][]byte
	// by group: its key, for a snapshot and for dropping an empty group
	intKeys   []int64
	strKeys   []string
	inUse     []bool
	nullGroup int32   // a NULL-safe NULL single key's group of a typed index, 0 none yet
	groups    int32   // groups numbered so far, 0 included
	fresh     []int32 // groups numbered in this batch
	free      []int32
}

// smallKeys bounds the integer keys looked up in a slice rather than the
// map: ids are mostly small numbers (as in rankop's partition index).
// The bound grows with the keys numbered (denseKeysPerGroup slots a
// group), so ids counted up from a start, as Nexmark's auctions, stay in
// the slice however many come (q4's 600k auctions were looked up in the
// map, a fifth of its join's CPU), while the slice stays within a few
// times the groups' own size for keys spread wide.
const (
	smallKeys         = 1 << 16
	denseKeysPerGroup = 4
)

// isSmall reports whether key v is looked up in the slice.
func (k *joinKeys) isSmall(v uint64) bool {
	return v < smallKeys || v < uint64(denseKeysPerGroup)*uint64(k.groups)
}

func newJoinKeys(cfg Config) *joinKeys {
	k := &joinKeys{cols: [2][]int{cfg.LeftKeys, cfg.RightKeys}, nullSafe: cfg.NullSafe, groups: 1}
	if len(cfg.LeftKeys) == 1 {
		switch cfg.Left.Field(cfg.LeftKeys[0]).Type.ID() {
		case arrow.INT32, arrow.INT64:
			k.typed, k.ints = true, map[int64]int32{}
		case arrow.STRING:
			k.typed, k.strTyped, k.strIndex = true, true, strkeys.New()
		}
	}
	if !k.typed {
		k.strs = map[string]int32{}
		k.enc = [2]rankop.RowKeys{rankop.NewRowKeys(cfg.LeftKeys), rankop.NewRowKeys(cfg.RightKeys)}
	}
	k.intKeys, k.strKeys, k.inUse = make([]int64, 1), make([]string, 1), []bool{true}
	return k
}

func (k *joinKeys) isNullSafe(i int) bool { return k.nullSafe != nil && k.nullSafe[i] }

// lookup appends the group of each row of rec, an input's batch, to
// groups, numbering new keys as they come.
func (k *joinKeys) lookup(input int, rec arrow.RecordBatch, groups []int32) []int32 {
	return k.lookupOrFind(input, rec, groups, true)
}

// find appends the group of each row of rec to groups, 0 for a key not
// numbered: the rows of a side that logs them probe the other side's
// groups but number none. Integer keys only (a side logs only those).
func (k *joinKeys) find(input int, rec arrow.RecordBatch, groups []int32) []int32 {
	return k.lookupOrFind(input, rec, groups, false)
}

func (k *joinKeys) lookupOrFind(input int, rec arrow.RecordBatch, groups []int32, number bool) []int32 {
	n := int(rec.NumRows())
	if k.typed {
		col := rec.Column(k.cols[input][0])
		switch a := col.(type) {
		case *array.Int64:
			return lookupInts(k, a.Int64Values()[:n], col, groups, number)
		case *array.Int32:
			return lookupInts(k, a.Int32Values()[:n], col, groups, number)
		case *array.String:
			return k.lookupStrings(a, groups)
		}
	}
	for len(k.bufs) < n {
		k.bufs = append(k.bufs, nil)
	}
	k.enc[input].Encode(rec, k.bufs)
	// a NULL where it matches nothing: group 0, its key not numbered
	start := len(groups)
	for range n {
		groups = append(groups, -1)
	}
	for c, col := range k.cols[input] {
		a := rec.Column(col)
		if k.isNullSafe(c) || a.NullN() == 0 {
			continue
		}
		for i := 0; i < n; i++ {
			if a.IsNull(i) {
				groups[start+i] = 0
			}
		}
	}
	for i := 0; i < n; i++ {
		if groups[start+i] == 0 {
			continue
		}
		if i > 0 && groups[start+i-1] > 0 && bytes.Equal(k.bufs[i], k.bufs[i-1]) {
			// the row before's key: a window's results share their bounds
			// (Nexmark q5's join on starttime and endtime)
			groups[start+i] = groups[start+i-1]
			continue
		}
		g, ok := k.strs[string(k.bufs[i])]
		if !ok {
			g = k.add()
			key := string(k.bufs[i])
			k.strs[key] = g
			k.strKeys[g] = key
		}
		groups[start+i] = g
	}
	return groups
}

func lookupInts[T int32 | int64](k *joinKeys, values []T, col arrow.Array, groups []int32, number bool) []int32 {
	nulls := col.NullN() > 0
	small := k.small
	for i, v := range values {
		if nulls && col.IsNull(i) {
			groups = append(groups, k.null())
			continue
		}
		if uint64(v) < uint64(len(small)) {
			if g := small[v]; g > 0 {
				groups = append(groups, g)
				continue
			}
		}
		g, ok := k.ints[int64(v)]
		if !ok && number {
			g = k.addInt(int64(v))
			small = k.small
		}
		groups = append(groups, g)
	}
	return groups
}

// groupOf is the group of integer key v, numbered if new.
func (k *joinKeys) groupOf(v int64) int32 {
	if uint64(v) < uint64(len(k.small)) {
		if g := k.small[v]; g > 0 {
			return g
		}
	}
	if g, ok := k.ints[v]; ok {
		return g
	}
	return k.addInt(v)
}

func (k *joinKeys) lookupStrings(a *array.String, groups []int32) []int32 {
	c := strkeys.Of(a)
	nulls := a.NullN() > 0
	for i := 0; i < a.Len(); i++ {
		if nulls && a.IsNull(i) {
			groups = append(groups, k.null())
			continue
		}
		g, ok := k.strIndex.Find(c, i)
		if !ok {
			g = k.addString(a.Value(i))
		}
		groups = append(groups, g)
	}
	return groups
}

// addString numbers a new STRING key, owning a copy of it.
func (k *joinKeys) addString(v string) int32 {
	g := k.add()
	v = strings.Clone(v)
	k.strIndex.Add(v, g)
	k.strKeys[g] = v
	return g
}

func (k *joinKeys) null() int32 {
	if !k.isNullSafe(0) {
		return 0
	}
	if k.nullGroup == 0 {
		k.nullGroup = k.add()
	}
	return k.nullGroup
}

func (k *joinKeys) addInt(v int64) int32 {
	g := k.add()
	k.ints[v] = g
	k.intKeys[g] = v
	if k.isSmall(uint64(v)) {
		if len(k.small) <= int(v) {
			// doubled, so a key counted up at a time copies it rarely
			k.small = append(k.small, make([]int32, max(int(v)+1, 2*len(k.small))-len(k.small))...)
		}
		k.small[v] = g
	}
	return g
}

// add numbers a new group, reusing a dropped one's number.
func (k *joinKeys) add() int32 {
	g := k.number()
	k.fresh = append(k.fresh, g)
	return g
}

func (k *joinKeys) number() int32 {
	if n := len(k.free); n > 0 {
		g := k.free[n-1]
		k.free = k.free[:n-1]
		k.inUse[g] = true
		return g
	}
	g := k.groups
	k.groups++
	k.intKeys = append(k.intKeys, 0)
	k.strKeys = append(k.strKeys, "")
	k.inUse = append(k.inUse, true)
	return g
}

// drop forgets group g's key (both sides hold no row of it).
func (k *joinKeys) drop(g int32) {
	switch {
	case g == k.nullGroup:
		k.nullGroup = 0
	case k.strTyped:
		k.strIndex.Delete(k.strKeys[g])
		k.strKeys[g] = ""
	case k.typed:
		v := k.intKeys[g]
		delete(k.ints, v)
		if uint64(v) < uint64(len(k.small)) {
			k.small[v] = 0
		}
	default:
		delete(k.strs, k.strKeys[g])
		k.strKeys[g] = ""
	}
	k.inUse[g] = false
	k.free = append(k.free, g)
}
