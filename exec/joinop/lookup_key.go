package joinop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// LookupKeyConfig describes a lookup join (FOR SYSTEM_TIME AS OF
// l.proctime) with a table queried by key, as Flink's lookup join over a
// LookupTableSource: each batch's keys the cache does not hold are
// fetched in one query (lookup.Lookuper), and each probe row joins the
// rows of its key as the table had them then.
type LookupKeyConfig struct {
	// Kind, Left, Table, LeftKeys, TableKeys, Residual and Clock are as
	// for a table of files; Load, Path and CheckInterval are not used.
	LookupFileConfig
	// Source opens the Lookuper of a run.
	Source lookup.Source
	// Cache is the cache of rows by key kept between batches.
	Cache lookup.CacheOptions
}

// LookupKeyJoin runs a LookupKeyConfig. Its state is the cache, which is
// not in checkpoints (as in Flink): a restored join starts with an empty
// cache.
type LookupKeyJoin struct {
	cfg        LookupKeyConfig
	mem        memory.Allocator
	out        pipeline.Operator
	schema     *arrow.Schema
	keySchema  *arrow.Schema // the key columns a query is asked
	clock      rowtime.Clock
	watermarks pipeline.WatermarkGate
	lookuper   lookup.Lookuper
	cache      *lookup.Cache
	nullID     int32 // the store's row of NULLs, a LEFT join's padding
	stats      Stats
	queries    int64
	base       Stats // the counters a restored checkpoint held
	closed     bool

	lookupPairs

	// reused per batch
	ents []int32
}

// NewLookupKeyJoin opens the table's Lookuper and returns the join,
// sending its rows to out.
func NewLookupKeyJoin(cfg LookupKeyConfig, mem memory.Allocator, out pipeline.Operator) (*LookupKeyJoin, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	if cfg.Source == nil {
		return nil, fmt.Errorf("lookup join: no table source")
	}
	if r := cfg.Residual; r != nil && r.DataType().ID() != arrow.BOOL {
		return nil, fmt.Errorf("lookup join: the condition %s is %s, not BOOLEAN", r, r.DataType())
	}
	j := &LookupKeyJoin{cfg: cfg, mem: mem, out: out, schema: schema, clock: cfg.Clock}
	j.residualInput = schema
	if j.clock == nil {
		j.clock = rowtime.SystemClock{}
	}
	if IsUpdateStream(cfg.Left) {
		j.residualInput = arrow.NewSchema(schema.Fields()[1:], nil)
	}
	var keyFields []arrow.Field
	for _, c := range cfg.TableKeys {
		keyFields = append(keyFields, cfg.Table.Field(c))
	}
	j.keySchema = arrow.NewSchema(keyFields, nil)
	if j.cache, err = lookup.NewCache(cfg.Cache, cfg.Table, cfg.TableKeys, mem); err != nil {
		return nil, err
	}
	if j.nullID, err = j.cache.AddNullRow(mem); err != nil {
		j.cache.Release()
		return nil, err
	}
	if j.lookuper, err = cfg.Source.Open(mem); err != nil {
		j.cache.Release()
		return nil, err
	}
	return j, nil
}

func (j *LookupKeyJoin) Schema() *arrow.Schema { return j.schema }

// Stats counts the probe rows, the rows sent, and the cache's hits and
// misses.
func (j *LookupKeyJoin) Stats() Stats {
	st := j.stats
	hits, misses := j.cache.Stats()
	st.LookupHits, st.LookupMisses = j.base.LookupHits+hits, j.base.LookupMisses+misses
	st.RowsIn += j.base.RowsIn
	st.ResultRows += j.base.ResultRows
	return st
}

// Queries is how many times the table was queried.
func (j *LookupKeyJoin) Queries() int64 { return j.queries }

// Cache is the join's cache of the table's rows.
func (j *LookupKeyJoin) Cache() *lookup.Cache { return j.cache }

// ProcessBatch finds each probe row's key in the cache, fetches the keys
// it does not hold in one query, and sends each probe row joined with its
// key's rows, in the order the table gave them, each with the watermark
// its probe row came under.
func (j *LookupKeyJoin) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	j.stats.RowsIn += int64(n)
	j.ents = j.cache.Probe(j.clock.Now(), rec, j.cfg.LeftKeys, j.ents)
	if err := j.fetch(rec); err != nil {
		return err
	}
	outer := j.cfg.Kind == LeftOuter
	li, ti := j.li[:0], j.ti[:0]
	for i, e := range j.ents {
		from := len(ti)
		if e >= 0 {
			ti = j.cache.RowIDs(e, ti)
			for range len(ti) - from {
				li = append(li, int32(i))
			}
		}
		if len(ti) == from && outer {
			li, ti = append(li, int32(i)), append(ti, j.nullID)
		}
	}
	j.li, j.ti = li, ti
	if err := j.join(b); err != nil {
		return err
	}
	return j.cache.End()
}

// fetch queries the keys the cache does not hold, one query for the batch,
// and fills the cache with their rows.
func (j *LookupKeyJoin) fetch(rec arrow.RecordBatch) error {
	pending := j.cache.Pending()
	if len(pending) == 0 {
		return j.cache.Fill(nil)
	}
	cols := make([]arrow.Array, 0, len(j.cfg.LeftKeys))
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for _, c := range j.cfg.LeftKeys {
		col, err := expr.Take(rec.Column(c), pending, j.mem)
		if err != nil {
			return err
		}
		cols = append(cols, col)
	}
	keys := array.NewRecordBatch(j.keySchema, cols, int64(len(pending)))
	defer keys.Release()
	j.queries++
	rows, err := j.lookuper.Lookup(keys)
	if err != nil {
		return err
	}
	defer rows.Release()
	if !rows.Schema().Equal(j.cfg.Table) {
		// the connector's schema may say NOT NULL where the plan's does
		// not (a PRIMARY KEY's columns), or the other way: the same
		// columns, relabelled, when the types agree and no NULL is where
		// the plan says none can be
		if err := fitsSchema(rows, j.cfg.Table); err != nil {
			return err
		}
		rows = array.NewRecordBatch(j.cfg.Table, rows.Columns(), rows.NumRows())
		defer rows.Release()
	}
	return j.cache.Fill(rows)
}

// fitsSchema reports rows that are not of schema but for nullability.
func fitsSchema(rows arrow.RecordBatch, schema *arrow.Schema) error {
	ok := int(rows.NumCols()) == schema.NumFields()
	for i := 0; ok && i < schema.NumFields(); i++ {
		f := schema.Field(i)
		ok = arrow.TypeEqual(rows.Column(i).DataType(), f.Type) && (f.Nullable || rows.Column(i).NullN() == 0)
	}
	if !ok {
		return fmt.Errorf("lookup join: the table's rows came as %s, not %s", rows.Schema(), schema)
	}
	return nil
}

// join sends the pairs of j.li and j.ti, those the residual condition
// holds for when there is one.
func (j *LookupKeyJoin) join(b pipeline.Batch) error {
	if j.cfg.Residual != nil {
		done, err := j.applyResidual(j, b, j.cfg.Residual, j.schema, j.nullID, j.cfg.Kind == LeftOuter, j.mem)
		if done || err != nil {
			return err
		}
	}
	if len(j.li) == 0 {
		return nil
	}
	out, err := j.gather(b.Record, j.li, j.ti)
	if err != nil {
		return err
	}
	return j.send(out, b.Watermarks)
}

// gather builds the output rows of probe rows li of rec and the cached
// rows ti.
func (j *LookupKeyJoin) gather(rec arrow.RecordBatch, li, ti []int32) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, j.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for c := range int(rec.NumCols()) {
		col, err := expr.Take(rec.Column(c), li, j.mem)
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
	}
	table, err := j.cache.Store().GatherColumnsWith(nil, ti, nil)
	if err != nil {
		return nil, err
	}
	cols = append(cols, table...)
	return array.NewRecordBatch(j.schema, cols, int64(len(li))), nil
}

// send passes an output batch on, its rows with their probe rows'
// watermarks, and releases it.
func (j *LookupKeyJoin) send(out arrow.RecordBatch, watermarks []int64) error {
	defer out.Release()
	j.stats.ResultRows += out.NumRows()
	return j.out.ProcessBatch(pipeline.Batch{Record: out, Watermarks: j.outputWatermarks(watermarks)})
}

// ProcessWatermark passes the watermark on: the output's time is the
// probe input's.
func (j *LookupKeyJoin) ProcessWatermark(wm int64) error {
	if !j.watermarks.Advance(wm) {
		return nil
	}
	return j.out.ProcessWatermark(wm)
}

func (j *LookupKeyJoin) ProcessEnd() error { return j.out.ProcessEnd() }

// SnapshotState writes the counters; the cache is not kept, as in Flink.
func (j *LookupKeyJoin) SnapshotState(e *checkpoint.Encoder) error {
	st := j.Stats()
	checkpoint.Ints(e, []int64{st.RowsIn, st.ResultRows, st.LookupHits, st.LookupMisses})
	return nil
}

// RestoreState reads what SnapshotState wrote into a fresh join.
func (j *LookupKeyJoin) RestoreState(d *checkpoint.Decoder) error {
	st := checkpoint.ReadInts[int64](d)
	if d.Err() == nil && len(st) != 4 {
		d.Fail("lookup join counters: %d values", len(st))
	}
	if d.Err() != nil {
		return d.Err()
	}
	j.stats = Stats{}
	j.base = Stats{RowsIn: st[0], ResultRows: st[1], LookupHits: st[2], LookupMisses: st[3]}
	return nil
}

// Close closes the Lookuper and lets the cached rows go.
func (j *LookupKeyJoin) Close() {
	if j.closed {
		return
	}
	j.closed = true
	_ = j.lookuper.Close()
	j.cache.Release()
}

var _ pipeline.Operator = (*LookupKeyJoin)(nil)

// LookupOperator is a running lookup join, of files or by key.
type LookupOperator interface {
	pipeline.Operator
	Stats() Stats
	SnapshotState(e *checkpoint.Encoder) error
	RestoreState(d *checkpoint.Decoder) error
}

var (
	_ LookupOperator = (*LookupKeyJoin)(nil)
	_ LookupOperator = (*LookupFileJoin)(nil)
)
