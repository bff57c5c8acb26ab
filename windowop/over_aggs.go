package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
)

// OverAggs is the state of an OVER aggregation's aggregates (exec/overop):
// its partitions (PARTITION BY keys interned to dense ids) and one slot of
// every accumulator per partition. A bounded frame takes rows out again,
// so its accumulators are the retracting ones of agg_retract.go; an
// unbounded frame only folds rows in, so any aggregate runs there.
//
// Update and AppendResults work on a run of rows per call, crossing the
// accumulators' interface once per run and aggregate; Retract takes a
// range, which the caller makes one row when the rows leaving a frame lie
// far apart.
type OverAggs struct {
	specs   []AggSpec
	accs    []accumulator
	retract []retracter // nil unless Bounded
	in      aggInputs
	slots   slotPool
	keys    *keyTable
	keyCols []arrow.Array
	keyIdx  []int
	numCols int // the input's

	// the general path's aggregates: all, or those without a sliding
	// form once SlideRows was called (over_slide.go)
	slides   []slider // by aggregate; nil: none slides
	frameAt  []int    // by input column: its place in a frame record
	frameCol []int    // the columns of a frame record; nil: all
	general  []int
	genAccs  []accumulator
	genSpecs []AggSpec
}

// NewOverAggs builds the aggregates specs over input, partitioned by the
// columns partitionBy. bounded asks for accumulators that retract.
func NewOverAggs(input *arrow.Schema, partitionBy []int, specs []AggSpec, bounded bool) (*OverAggs, error) {
	keys, err := keyTableOf(input, partitionBy)
	if err != nil {
		return nil, err
	}
	o := &OverAggs{specs: specs, keys: keys, keyIdx: partitionBy, keyCols: make([]arrow.Array, len(partitionBy)), numCols: input.NumFields()}
	for _, a := range specs {
		if err := checkInputs(a, input); err != nil {
			return nil, err
		}
		if bounded {
			r, err := newRetractAccumulator(a, argType(a, input))
			if err != nil {
				return nil, OverRetractError(a, err)
			}
			o.accs, o.retract = append(o.accs, r), append(o.retract, r)
			continue
		}
		acc, err := newAccumulator(a, argType(a, input))
		if err != nil {
			return nil, err
		}
		o.accs = append(o.accs, acc)
	}
	o.slots.accs = o.accs
	o.genAccs, o.genSpecs = o.accs, o.specs
	for i := range o.accs {
		o.general = append(o.general, i)
	}
	return o, nil
}

// OverRetractError says why aggregate a cannot run in a bounded OVER
// frame: it would have to take the rows leaving the frame out again.
func OverRetractError(a AggSpec, err error) error {
	return fmt.Errorf("%s is not supported in a bounded OVER frame yet: rows leaving the frame must be taken out again, which it cannot (%v); use ROWS or RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", a.Kind, err)
}

// OverRetractable reports whether aggregate a over input can run in a
// bounded OVER frame, with the reason when it cannot.
func OverRetractable(a AggSpec, input *arrow.Schema) error {
	if _, err := newRetractAccumulator(a, argType(a, input)); err != nil {
		return OverRetractError(a, err)
	}
	return nil
}

// ResultFields are the aggregates' output columns, named by their specs.
func (o *OverAggs) ResultFields() []arrow.Field {
	fields := make([]arrow.Field, len(o.accs))
	for i, a := range o.accs {
		fields[i] = arrow.Field{Name: o.specs[i].Name, Type: a.resultType(), Nullable: o.specs[i].Nullable()}
	}
	return fields
}

// Partitions writes the partition id of each of rec's n rows into ids and
// returns how many partitions there are now.
func (o *OverAggs) Partitions(rec arrow.RecordBatch, n int, ids []uint32) int {
	for i, k := range o.keyIdx {
		o.keyCols[i] = rec.Column(k)
	}
	o.keys.intern(o.keyCols, n, ids)
	clear(o.keyCols)
	return int(o.keys.n)
}

// NumPartitions is how many partitions have been seen.
func (o *OverAggs) NumPartitions() int { return int(o.keys.n) }

// Alloc returns a clean slot; Release resets one and frees it.
func (o *OverAggs) Alloc() int32       { return o.slots.alloc() }
func (o *OverAggs) Release(slot int32) { o.slots.release(slot) }
func (o *OverAggs) LiveSlots() int     { return o.slots.live() }
func (o *OverAggs) Bounded() bool      { return o.retract != nil }
func (o *OverAggs) Specs() []AggSpec   { return o.specs }
func (o *OverAggs) NumAggregates() int { return len(o.accs) }
func (o *OverAggs) failed() error      { return accumulatorsFailed(o.accs) }

// Update folds rows [from, to) of rec into their slots (slots[i] < 0
// skips row i): every aggregate but those Slide computes.
func (o *OverAggs) Update(rec arrow.RecordBatch, slots []int32, from, to int) error {
	o.in.update(o.genAccs, o.genSpecs, rec, slots, from, to)
	return o.failed()
}

// Retract takes rows [from, to) of rec out of their slots (slots[i] < 0
// skips row i). Only a bounded OverAggs retracts.
func (o *OverAggs) Retract(rec arrow.RecordBatch, slots []int32, from, to int) {
	o.in.retract(o.genAccs, o.genSpecs, rec, slots, from, to)
}

// AppendResults appends, per aggregate i, the result of each slot to
// builders[i].
func (o *OverAggs) AppendResults(slots []int32, builders []array.Builder) {
	for k, i := range o.general {
		o.genAccs[k].appendResults(slots, builders[i])
	}
}

// Save writes the partitions, the slot pool and every slot's
// accumulators.
func (o *OverAggs) Save(e *checkpoint.Encoder) {
	saveSlotState(e, o.keys, &o.slots, o.accs)
}

// Load reads what Save wrote into a fresh OverAggs of the same
// configuration; held are the slots the caller's partitions hold, each
// exactly once. Anything that does not fit is an error wrapping
// checkpoint.ErrCorrupt.
func (o *OverAggs) Load(d *checkpoint.Decoder, held func(own func(slot int32))) error {
	owners, err := loadSlotState(d, memory.DefaultAllocator, o.keys, &o.slots, o.accs)
	if err != nil {
		return err
	}
	held(owners.own)
	owners.done()
	return d.Err()
}

// AppendState appends l's counts to out, for a checkpoint of an operator
// outside this package (the OVER aggregation's).
func (l *Lateness) AppendState(out []int64) []int64 { return l.encode(out) }

// LoadState reads what AppendState wrote; false when it does not fit.
func (l *Lateness) LoadState(v []int64) bool { return l.decode(v) }
