package windowop

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"
)

// ErrStateLimit is returned when a window operator's state outgrows
// Config.MaxStateBytes ('wsql.state.max-bytes').
var ErrStateLimit = errors.New("window state limit exceeded")

// stateMeter estimates the bytes of a WindowOperator's state, cheaply
// enough to run after every batch:
//
//   - accumulator slots ever allocated (their flat arrays never shrink) ×
//     the bytes of one slot in every accumulator's per-slot arrays, read
//     from their element types once;
//   - open (key, window) states × their index entry;
//   - the timers of TUMBLE, HOP and CUMULATE windows as they hold them
//     (alignedTimers counts its buckets and key sets), so a HOP whose rows
//     are each in thousands of windows is counted by its windows, not its
//     panes; a session's timer is part of its index entry;
//   - keys × a fixed overhead (the interning map's entry, per-key slices of
//     the mode) plus each key's value bytes, counted once when it appears;
//   - the contents of slots that vary in size: LISTAGG's values, DISTINCT
//     sets, MIN/MAX/FIRST/LAST of strings. The slots a batch, a firing or
//     a release touched are measured again after the batch (contentSizer),
//     so the cost follows the rows, not the state.
type stateMeter struct {
	perSlot   int64
	perWindow int64
	keyBytes  int64  // value bytes of keys [0, measured)
	measured  uint32 // keys counted in keyBytes

	panes *paneMode // pane mode: its timers and window scratch

	sizers   []contentSizer
	held     []int64 // per slot: its contents as last measured
	heldSum  int64
	dirty    []int32 // slots touched since the last measurement
	sizes    []int64 // measurement scratch
	lastSeen int32   // the slot appended last, to skip runs of one slot
}

// contentSizer is an accumulator whose slots hold contents of varying
// size. addHeldBytes adds, for each slot of slots, the bytes it holds
// beyond its fixed per-slot arrays to sizes: one call per batch.
type contentSizer interface {
	addHeldBytes(slots []int32, sizes []int64)
}

// perKeyBytes is the fixed cost of a key: its map entry with the id and
// the per-key slice headers of pane or session mode.
const perKeyBytes = 64

func (m *stateMeter) init(op *WindowOperator) {
	m.perSlot = 4 // its entry in the free list once released
	for _, a := range op.accs {
		m.perSlot += slotBytes(reflect.ValueOf(a))
		if c := sizerOf(a); c != nil {
			m.sizers = append(m.sizers, c)
		}
	}
	if len(m.sizers) > 0 {
		m.perSlot += 8 // its entry in held
		op.slots.meter = m
	}
	m.lastSeen = -1
	switch mode := op.mode.(type) {
	case *sessionMode:
		m.perWindow = int64(unsafe.Sizeof(Mapping{}) + unsafe.Sizeof(sessionEntry{}))
	case *paneMode:
		m.perWindow = int64(unsafe.Sizeof(paneSlot{}))
		m.panes = mode
	}
}

// sizerOf returns the accumulator's contentSizer if its slots vary in size.
func sizerOf(a accumulator) contentSizer {
	if p, ok := a.(*pickAcc); ok && p.kind != valString {
		return nil
	}
	c, _ := a.(contentSizer)
	return c
}

// touchRows marks the slots of a run of rows for measuring (-1: no slot).
func (m *stateMeter) touchRows(slots []int32) {
	if m.sizers == nil {
		return
	}
	for _, s := range slots {
		if s >= 0 && s != m.lastSeen {
			m.dirty = append(m.dirty, s)
			m.lastSeen = s
		}
	}
}

// touch marks one slot for measuring.
func (m *stateMeter) touch(s int32) {
	if m.sizers != nil && s != m.lastSeen {
		m.dirty = append(m.dirty, s)
		m.lastSeen = s
	}
}

// touchAll marks slots [0, n) for measuring, after a restore.
func (m *stateMeter) touchAll(n int32) {
	for s := range n {
		m.touch(s)
	}
}

// measureContents measures the touched slots again. A slot touched twice
// is measured twice against the same state: its second delta is zero.
func (m *stateMeter) measureContents(nslots int32) {
	if len(m.dirty) == 0 {
		return
	}
	m.sizes = grow(m.sizes, len(m.dirty))
	clear(m.sizes)
	for _, c := range m.sizers {
		c.addHeldBytes(m.dirty, m.sizes)
	}
	for len(m.held) < int(nslots) {
		m.held = append(m.held, 0)
	}
	for i, s := range m.dirty {
		m.heldSum += m.sizes[i] - m.held[s]
		m.held[s] = m.sizes[i]
	}
	m.dirty, m.lastSeen = m.dirty[:0], -1
}

// heldBytes is what the pane mode holds besides slots: the timers of its
// windows, and the windows of recent panes (each up to MaxWindowsPerRow).
func (m *paneMode) heldBytes() int64 {
	n := m.timers.heldBytes() + int64(cap(m.winBuf))*int64(unsafe.Sizeof(Window{}))
	for i := range m.paneWins {
		n += int64(cap(m.paneWins[i].wins)) * int64(unsafe.Sizeof(Window{}))
	}
	return n
}

var accumulatorType = reflect.TypeFor[accumulator]()

// slotBytes is the bytes one slot takes in an accumulator: the element
// size of each of its slices, following nested accumulators and structs.
// Scratch slices count too, which errs on the large side.
func slotBytes(v reflect.Value) int64 {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return 0
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0
	}
	var n int64
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Slice:
			n += int64(f.Type().Elem().Size())
		case reflect.Struct:
			n += slotBytes(f)
		case reflect.Interface, reflect.Pointer:
			if !f.IsNil() && f.Elem().Type().Implements(accumulatorType) {
				n += slotBytes(f)
			}
		}
	}
	return n
}

// StateBytes estimates the bytes the operator's state holds (see
// stateMeter for what is counted).
func (op *WindowOperator) StateBytes() int64 {
	m := &op.meter
	k := op.keys
	for ; m.measured < k.n; m.measured++ {
		m.keyBytes += perKeyBytes + keyValueBytes(k, m.measured)
	}
	m.measureContents(op.slots.n)
	n := int64(op.slots.n)*m.perSlot + int64(op.slots.live())*m.perWindow + m.keyBytes + m.heldSum
	if m.panes != nil {
		n += m.panes.heldBytes()
	}
	return n
}

// keyValueBytes is the bytes key id's values take: in their columns and,
// for several key columns, again as the encoded map key.
func keyValueBytes(k *keyTable, id uint32) int64 {
	var n int64
	for _, c := range k.cols {
		switch c := c.(type) {
		case *stringKeys:
			n += int64(unsafe.Sizeof("")) + int64(len(c.vals[id])) + 1
		case *boolKeys:
			n += 2
		case *decimalKeys:
			n += 17
		default:
			n += 9
		}
	}
	if len(k.cols) > 1 {
		n *= 2
	}
	return n
}

// checkState fails the run when the state exceeds Config.MaxStateBytes.
// It runs once per batch, after the batch's rows; the touched slots are
// measured with or without a limit, so their list stays short.
func (op *WindowOperator) checkState() error {
	limit := op.cfg.MaxStateBytes
	if limit <= 0 {
		op.meter.measureContents(op.slots.n)
		return nil
	}
	size := op.StateBytes()
	if size <= limit {
		return nil
	}
	m := &op.meter
	var timers string
	if m.panes != nil {
		timers = fmt.Sprintf(", %s in %d window timers", FormatBytes(m.panes.heldBytes()), op.timers.Len())
	}
	return fmt.Errorf("%w: the window aggregation holds about %s of state, more than 'wsql.state.max-bytes' allows (%s): %d open windows over %d keys (%s per window, %s in keys%s, %s in aggregate values). "+
		"Use a smaller window, slide, step or session gap, group by fewer keys, or raise 'wsql.state.max-bytes'",
		ErrStateLimit, FormatBytes(size), FormatBytes(limit), op.slots.live(), op.keys.n,
		FormatBytes(m.perSlot+m.perWindow), FormatBytes(m.keyBytes), timers, FormatBytes(m.heldSum))
}

// FormatBytes shows a size in the units 'wsql.state.max-bytes' takes.
func FormatBytes(n int64) string {
	units := []string{"bytes", "kb", "mb", "gb", "tb"}
	f := float64(n)
	u := 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + units[u]
}

// The contents of the accumulators whose slots vary in size. Their sizes
// are read here, beside the rest of the accounting, from what each slot
// holds: buffer capacities, not lengths, since a reused slot keeps them.

func (a *listAggAcc) addHeldBytes(slots []int32, sizes []int64) {
	item := int64(unsafe.Sizeof(listItem{}))
	for i, s := range slots {
		l := &a.lists[s]
		sizes[i] += int64(cap(l.buf)) + int64(cap(l.items))*item
		if a.distinct && a.seen[s] != nil {
			// LISTAGG(DISTINCT): the set's map, entries of a string and
			// an arrival number, and its copies of the values (the list's)
			sizes[i] += mapBaseBytes + int64(len(a.seen[s]))*(3*24+8) + int64(len(l.buf))
		}
	}
}

func (a *pickAcc) addHeldBytes(slots []int32, sizes []int64) {
	for i, s := range slots {
		sizes[i] += int64(cap(a.strs[s]))
	}
}

func (a *percentileAcc) addHeldBytes(slots []int32, sizes []int64) {
	entry := int64(unsafe.Sizeof(pctEntry{}))
	for i, s := range slots {
		sizes[i] += int64(cap(a.vals[s])) * entry
	}
}

func (a *distinctAcc[K]) addHeldBytes(slots []int32, sizes []int64) {
	var k K
	key := int64(unsafe.Sizeof(k))
	for i, s := range slots {
		if a.sets[s] == nil {
			continue
		}
		// the map: its header and first group, then each entry with the
		// table's slack; the insertion-order slice; string values' bytes
		sizes[i] += mapBaseBytes + int64(len(a.order[s]))*(3*key+8) + int64(cap(a.order[s]))*key + a.valueBytes[s]
	}
}

// mapBaseBytes is a small Go map's memory before its entries (measured:
// about 200 bytes for a set of one value).
const mapBaseBytes = 192

func (a *collectAcc) addHeldBytes(slots []int32, sizes []int64) {
	entry := int64(unsafe.Sizeof(collectEntry{}))
	for i, s := range slots {
		set := &a.sets[s]
		sizes[i] += int64(cap(set.entries)) * entry
		if set.index != nil {
			// the map's entries of a string and a position, and the values'
			// bytes, which entries and the map share
			sizes[i] += mapBaseBytes + int64(len(set.index))*(3*20) + set.bytes
		}
	}
}
