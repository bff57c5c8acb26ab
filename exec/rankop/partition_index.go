package rankop

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/wsql/wsql/exec/strkeys"
)

// partitionIndex numbers a Rank's partitions 0, 1, 2, ... in the order
// they first come. A partition key of one INT, BIGINT or STRING column is
// looked up by its value in a typed map; any other key by its encoded
// bytes (sort_key.go). Encoding the key and hashing the encoded string
// were a fifth of a deduplication's CPU; the typed map takes a third of
// that.
type partitionIndex struct {
	col   int // the key column of a typed index
	typ   arrow.Type
	ints  map[int64]int32 // INT, BIGINT
	small []int32         // INT, BIGINT small or dense keys, not in ints: by value, partition+1 (0: none yet)
	// one past the largest key not negative in ints: a key from there
	// on that small does not hold is new
	intsBelow uint64
	strs      *strkeys.Index // STRING, its keys owned copies
	// two INT or BIGINT columns (Nexmark q18's bidder and auction): the
	// pair of values, both not NULL; a row with a NULL is looked up
	// encoded. The encoded keys were a string allocation and 34+ bytes a
	// partition, most of a deduplication's 5M partitions' index.
	pairs    *pairIndex // pair number -> partition in pairPid
	pairPid  []int32
	pairCols [2]int
	pairTyps [2]arrow.Type
	// the NULL key's partition of a typed index, or -1
	nullPid int32

	enc     keyEncoder // any other key
	encoded map[string]int32
	scratch [][]byte
	first   []int64 // lookupPairs scratch
	second  []int64

	n int32 // partitions so far
}

func newPartitionIndex(input *arrow.Schema, cols []int) *partitionIndex {
	x := &partitionIndex{nullPid: -1}
	if len(cols) == 1 {
		switch t := input.Field(cols[0]).Type.ID(); t {
		case arrow.INT32, arrow.INT64:
			x.col, x.typ, x.ints = cols[0], t, map[int64]int32{}
			return x
		case arrow.STRING:
			x.col, x.typ, x.strs = cols[0], t, strkeys.New()
			return x
		}
	}
	for _, k := range cols {
		x.enc.keys = append(x.enc.keys, SortKey{Index: k})
	}
	x.encoded = map[string]int32{}
	if len(cols) == 2 && isIntKey(input.Field(cols[0]).Type) && isIntKey(input.Field(cols[1]).Type) {
		x.pairs = &pairIndex{}
		x.pairCols = [2]int{cols[0], cols[1]}
		x.pairTyps = [2]arrow.Type{input.Field(cols[0]).Type.ID(), input.Field(cols[1]).Type.ID()}
	}
	return x
}

func isIntKey(dt arrow.DataType) bool { return dt.ID() == arrow.INT32 || dt.ID() == arrow.INT64 }

// intValues reads an INT or BIGINT column as int64s into dst.
func intValues(col arrow.Array, dst []int64) []int64 {
	switch a := col.(type) {
	case *array.Int64:
		return append(dst[:0], a.Int64Values()...)
	case *array.Int32:
		dst = dst[:0]
		for _, v := range a.Int32Values() {
			dst = append(dst, int64(v))
		}
		return dst
	}
	panic(fmt.Sprintf("rankop: %s is not an integer key", col.DataType()))
}

// lookupPairs is lookup for a key of two integer columns.
func (x *partitionIndex) lookupPairs(rec arrow.RecordBatch, pids []int32) []int32 {
	n := int(rec.NumRows())
	c0, c1 := rec.Column(x.pairCols[0]), rec.Column(x.pairCols[1])
	x.first = intValues(c0, x.first)
	x.second = intValues(c1, x.second)
	nulls := c0.NullN() > 0 || c1.NullN() > 0
	for i := 0; i < n; i++ {
		if nulls && (c0.IsNull(i) || c1.IsNull(i)) {
			k := string(appendIntKey(appendIntKey(nil, c0, x.first, i), c1, x.second, i))
			pid, ok := x.encoded[k]
			if !ok {
				pid = x.otherPartition()
				x.encoded[k] = pid
			}
			pids = append(pids, pid)
			continue
		}
		pids = append(pids, x.pairPartition(x.first[i], x.second[i]))
	}
	return pids
}

// pairPartition is the partition of the key pair (a, b), a new one when
// it is new.
func (x *partitionIndex) pairPartition(a, b int64) int32 {
	n, ok := x.pairs.getOrAdd(a, b, int32(x.pairs.len()))
	if x.pairPid == nil { // pair numbers are partitions
		if !ok {
			x.next()
		}
		return n
	}
	if !ok {
		x.pairPid = append(x.pairPid, x.next())
	}
	return x.pairPid[n]
}

// otherPartition numbers a new partition that is not a pair's (a key
// with a NULL), after which pair numbers are no longer partitions.
func (x *partitionIndex) otherPartition() int32 {
	if x.pairs != nil && x.pairPid == nil {
		x.pairPid = make([]int32, x.pairs.len())
		for i := range x.pairPid {
			x.pairPid[i] = int32(i)
		}
	}
	return x.next()
}

// appendIntKey appends row i of an integer key column as keyEncoder
// writes it ascending.
func appendIntKey(dst []byte, col arrow.Array, vals []int64, i int) []byte {
	if col.IsNull(i) {
		return append(dst, 0)
	}
	return binary.BigEndian.AppendUint64(append(dst, 1), uint64(vals[i])^signBit)
}

// Len is the number of partitions so far.
func (x *partitionIndex) Len() int { return int(x.n) }

// lookup appends the partition of each row of rec to pids, numbering new
// partitions as they come.
func (x *partitionIndex) lookup(rec arrow.RecordBatch, pids []int32) []int32 {
	n := int(rec.NumRows())
	switch {
	case x.ints != nil:
		col := rec.Column(x.col)
		switch a := col.(type) {
		case *array.Int64:
			return lookupInts(x, a.Int64Values()[:n], col, pids)
		case *array.Int32:
			return lookupInts(x, a.Int32Values()[:n], col, pids)
		}
	case x.strs != nil:
		a := rec.Column(x.col).(*array.String)
		c := strkeys.Of(a)
		nulls := a.NullN() > 0
		for i := 0; i < n; i++ {
			if nulls && a.IsNull(i) {
				pids = append(pids, x.null())
				continue
			}
			pid, ok := x.strs.Find(c, i)
			if !ok {
				pid = x.addString(a.Value(i))
			}
			pids = append(pids, pid)
		}
		return pids
	case x.pairs != nil:
		return x.lookupPairs(rec, pids)
	}
	x.scratch = growKeys(x.scratch, n)
	x.enc.encode(rec, x.scratch)
	for i := 0; i < n; i++ {
		pid, ok := x.encoded[string(x.scratch[i])]
		if !ok {
			pid = x.next()
			x.encoded[string(x.scratch[i])] = pid
		}
		pids = append(pids, pid)
	}
	return pids
}

// smallKeys bounds the integer keys looked up by value in a slice rather
// than the map: ids and codes are mostly small numbers, and a map lookup
// was 12 of the 34 ns a row the dedup-last query's rank took (its output
// buffers reused).
const smallKeys = 1 << 16

// denseKeys bounds the larger keys also looked up in that slice, while
// the keys are dense (each below four times the partitions so far):
// Nexmark q19's 600K auctions, numbered from 1000, were a map lookup
// each, 8% of the query's CPU.
const denseKeys = 1 << 24

func lookupInts[T int32 | int64](x *partitionIndex, values []T, col arrow.Array, pids []int32) []int32 {
	nulls := col.NullN() > 0
	small := x.small
	for i, v := range values {
		if nulls && col.IsNull(i) {
			pids = append(pids, x.null())
			continue
		}
		if uint64(v) < uint64(len(small)) {
			if pid := small[v]; pid > 0 {
				pids = append(pids, pid-1)
				continue
			}
			if uint64(v) >= x.intsBelow {
				// new: a map lookup that would miss was half the
				// lookup's time over q19's 600K auctions
				pids = append(pids, x.addInt(int64(v)))
				small = x.small
				continue
			}
		}
		pid, ok := x.ints[int64(v)]
		if !ok {
			pid = x.addInt(int64(v))
			small = x.small
		}
		pids = append(pids, pid)
	}
	return pids
}

// addInt numbers a new integer key.
func (x *partitionIndex) addInt(v int64) int32 {
	pid := x.next()
	if uint64(v) < smallKeys || uint64(v) < denseKeys && uint64(v) < 4*uint64(x.n) {
		if len(x.small) <= int(v) {
			x.small = append(x.small, make([]int32, int(v)+1-len(x.small))...)
		}
		x.small[v] = pid + 1
		return pid
	}
	x.ints[v] = pid
	if v >= 0 {
		x.intsBelow = max(x.intsBelow, uint64(v)+1)
	}
	return pid
}

// addString numbers a new string key, owning a copy of it.
func (x *partitionIndex) addString(v string) int32 {
	pid := x.next()
	x.strs.Add(strings.Clone(v), pid)
	return pid
}

func (x *partitionIndex) next() int32 {
	x.n++
	return x.n - 1
}

func (x *partitionIndex) null() int32 {
	if x.nullPid < 0 {
		x.nullPid = x.next()
	}
	return x.nullPid
}

// keys returns each partition's key as keyEncoder encodes it, by
// partition: the form checkpoints keep whatever the index.
func (x *partitionIndex) keys() []string {
	keys := make([]string, x.n)
	if x.nullPid >= 0 {
		keys[x.nullPid] = "\x00"
	}
	for v, pid1 := range x.small {
		if pid1 > 0 {
			keys[pid1-1] = string(binary.BigEndian.AppendUint64([]byte{1}, uint64(v)^signBit))
		}
	}
	for v, pid := range x.ints {
		keys[pid] = string(binary.BigEndian.AppendUint64([]byte{1}, uint64(v)^signBit))
	}
	if x.strs != nil {
		x.strs.All(func(v string, pid int32) { keys[pid] = string(appendBytes([]byte{1}, v)) })
	}
	for k, pid := range x.encoded {
		keys[pid] = k
	}
	if x.pairs != nil {
		for n := range int32(x.pairs.len()) {
			k, pid := x.pairs.pairs.at(n), n
			if x.pairPid != nil {
				pid = x.pairPid[n]
			}
			b := binary.BigEndian.AppendUint64([]byte{1}, uint64(k[0])^signBit)
			keys[pid] = string(binary.BigEndian.AppendUint64(append(b, 1), uint64(k[1])^signBit))
		}
	}
	return keys
}

// restore gives the encoded key the next partition number, as keys
// wrote it.
func (x *partitionIndex) restore(key string) error {
	switch {
	case x.pairs != nil && len(key) == 18 && key[0] == 1 && key[9] == 1:
		a := int64(binary.BigEndian.Uint64([]byte(key[1:9])) ^ signBit)
		b := int64(binary.BigEndian.Uint64([]byte(key[10:])) ^ signBit)
		if (x.pairTyps[0] == arrow.INT32 && int64(int32(a)) != a) || (x.pairTyps[1] == arrow.INT32 && int64(int32(b)) != b) {
			break
		}
		x.pairPartition(a, b)
		return nil
	case x.encoded != nil:
		x.encoded[key] = x.otherPartition()
		return nil
	case key == "\x00":
		x.nullPid = x.next()
		return nil
	case x.ints != nil && len(key) == 9 && key[0] == 1:
		v := int64(binary.BigEndian.Uint64([]byte(key[1:])) ^ signBit)
		if x.typ == arrow.INT32 && int64(int32(v)) != v {
			break
		}
		x.addInt(v)
		return nil
	case x.strs != nil && len(key) >= 3 && key[0] == 1:
		if v, ok := decodeBytes(key[1:]); ok {
			x.addString(v)
			return nil
		}
	}
	return fmt.Errorf("partition key %q does not fit a %s key", key, x.typ)
}

// decodeBytes is the string appendBytes encoded as all of enc.
func decodeBytes(enc string) (string, bool) {
	var b strings.Builder
	for j := 0; j < len(enc); j++ {
		if enc[j] != 0 {
			b.WriteByte(enc[j])
			continue
		}
		if j+1 >= len(enc) {
			return "", false
		}
		switch enc[j+1] {
		case 0:
			return b.String(), j+2 == len(enc)
		case 0xff:
			b.WriteByte(0)
			j++
		default:
			return "", false
		}
	}
	return "", false
}
