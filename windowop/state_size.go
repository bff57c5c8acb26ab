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
//   - open (key, window) states × their index entry and timer;
//   - keys × a fixed overhead (the interning map's entry, per-key slices of
//     the mode) plus each key's value bytes, counted once when it appears.
//
// Variable-length aggregate contents (MIN/MAX/FIRST/LAST of strings,
// LISTAGG's values, DISTINCT sets) count only their per-slot headers, so
// the estimate is a lower bound for them.
type stateMeter struct {
	perSlot   int64
	perWindow int64
	keyBytes  int64  // value bytes of keys [0, measured)
	measured  uint32 // keys counted in keyBytes
}

// perKeyBytes is the fixed cost of a key: its map entry with the id and
// the per-key slice headers of pane or session mode.
const perKeyBytes = 64

func (m *stateMeter) init(op *WindowOperator) {
	m.perSlot = 4 // its entry in the free list once released
	for _, a := range op.accs {
		m.perSlot += slotBytes(reflect.ValueOf(a))
	}
	if _, ok := op.mode.(*sessionMode); ok {
		m.perWindow = int64(unsafe.Sizeof(Mapping{}) + unsafe.Sizeof(sessionEntry{}))
	} else {
		m.perWindow = int64(unsafe.Sizeof(paneSlot{})) + 4 // a key id in its window's timer set
	}
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
	return int64(op.slots.n)*m.perSlot + int64(op.slots.live())*m.perWindow + m.keyBytes
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
// It runs once per batch, after the batch's rows.
func (op *WindowOperator) checkState() error {
	limit := op.cfg.MaxStateBytes
	if limit <= 0 {
		return nil
	}
	size := op.StateBytes()
	if size <= limit {
		return nil
	}
	return fmt.Errorf("%w: the window aggregation holds about %s of state, more than 'wsql.state.max-bytes' allows (%s): %d open windows over %d keys (%s per window, %s in keys). "+
		"Use a smaller window or session gap, group by fewer keys, or raise 'wsql.state.max-bytes'",
		ErrStateLimit, FormatBytes(size), FormatBytes(limit), op.slots.live(), op.keys.n,
		FormatBytes(op.meter.perSlot+op.meter.perWindow), FormatBytes(op.meter.keyBytes))
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
