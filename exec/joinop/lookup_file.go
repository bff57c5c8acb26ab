package joinop

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/internal/recycle"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

// LookupFileConfig describes a processing-time temporal join (FOR
// SYSTEM_TIME AS OF l.proctime) with a dimension table kept in a file, as
// Flink's lookup join over a filesystem table: the whole table is read
// into memory, and each probe row joins the table's rows of its key as
// they are when the row is processed. The table is read again when its
// file changed, which is checked at most once every CheckInterval.
type LookupFileConfig struct {
	// Kind is Inner or LeftOuter.
	Kind Kind
	// Left is the probe input's schema (an update stream's rows keep their
	// kinds); Table the dimension table's, every column data.
	Left, Table *arrow.Schema
	// LeftKeys[i] of Left equals TableKeys[i] of Table; a NULL key matches
	// nothing unless NullSafe[i]. NullSafe may be nil.
	LeftKeys, TableKeys []int
	NullSafe            []bool
	// Residual, when set, is the rest of the ON condition: a BOOLEAN over
	// Left's data columns, then Table's.
	Residual expr.Expr
	// Load reads the whole table, a batch of schema Table; the join owns
	// the batch it returns. It is called when the join starts and after
	// Path changed.
	Load func(mem memory.Allocator) (arrow.RecordBatch, error)
	// Path is the file the table is read from, or the directory of its
	// files: a file added, removed, or changed in modification time, size
	// or identity (replaced by another) makes the join load again.
	Path string
	// CheckInterval is how long the join goes without looking at Path
	// again (Flink's 'lookup.cache.ttl'); 0 looks at every batch.
	CheckInterval time.Duration
	// Clock tells processing time; nil is the system clock.
	Clock rowtime.Clock
}

// OutputSchema is the row kind when Left is an update stream, then Left's
// data columns, then Table's (nullable in a LEFT join).
func (c LookupFileConfig) OutputSchema() (*arrow.Schema, error) {
	if c.Left == nil || c.Table == nil {
		return nil, fmt.Errorf("lookup join: both the input and the table need a schema")
	}
	if c.Kind != Inner && c.Kind != LeftOuter {
		return nil, fmt.Errorf("lookup join: INNER or LEFT, not %s", c.Kind)
	}
	if len(c.LeftKeys) != len(c.TableKeys) || c.NullSafe != nil && len(c.NullSafe) != len(c.LeftKeys) {
		return nil, fmt.Errorf("lookup join: %d input keys, %d table keys", len(c.LeftKeys), len(c.TableKeys))
	}
	for i, l := range c.LeftKeys {
		r := c.TableKeys[i]
		if l < 0 || l >= c.Left.NumFields() || r < 0 || r >= c.Table.NumFields() {
			return nil, fmt.Errorf("lookup join: key %d is out of range", i)
		}
		if lt, rt := c.Left.Field(l).Type, c.Table.Field(r).Type; !arrow.TypeEqual(lt, rt) {
			return nil, fmt.Errorf("lookup join: key %d compares %s with %s", i, lt, rt)
		}
		if err := rankop.CheckKeyType(c.Left.Field(l).Type); err != nil {
			return nil, fmt.Errorf("lookup join: key %d: %w", i, err)
		}
	}
	var fields []arrow.Field
	fields = append(fields, c.Left.Fields()...)
	for _, f := range c.Table.Fields() {
		f.Nullable = f.Nullable || c.Kind == LeftOuter
		fields = append(fields, f)
	}
	return arrow.NewSchema(fields, nil), nil
}

// LookupFileJoin runs a LookupFileConfig. It keeps no state between
// batches but the table, which it reads again when restored.
type LookupFileJoin struct {
	cfg        LookupFileConfig
	mem        memory.Allocator
	outMem     *recycle.Allocator // the output's
	out        pipeline.Operator
	schema     *arrow.Schema
	clock      rowtime.Clock
	watermarks pipeline.WatermarkGate

	probeKeys temporalKeyColumns
	table     lookupTable
	files     []lookupFile // Path as the table was read
	checked   time.Time    // when Path was last looked at
	loads     int64
	stats     Stats
	closed    bool

	lookupPairs

	// reused per batch
	marks []int32
}

// NewLookupFileJoin reads the table and returns the join, sending its rows
// to out.
func NewLookupFileJoin(cfg LookupFileConfig, mem memory.Allocator, out pipeline.Operator) (*LookupFileJoin, error) {
	schema, err := cfg.OutputSchema()
	if err != nil {
		return nil, err
	}
	if cfg.Load == nil {
		return nil, fmt.Errorf("lookup join: no table loader")
	}
	if r := cfg.Residual; r != nil && r.DataType().ID() != arrow.BOOL {
		return nil, fmt.Errorf("lookup join: the condition %s is %s, not BOOLEAN", r, r.DataType())
	}
	// the output rows' buffers come back for the next batch once
	// downstream releases each one (Nexmark q13 made 1.5 GB of garbage of
	// them); the table is read into mem
	j := &LookupFileJoin{cfg: cfg, mem: mem, outMem: recycle.New(mem), out: out, schema: schema, clock: cfg.Clock,
		probeKeys: newTemporalKeyColumns(cfg.LeftKeys, cfg.NullSafe)}
	if j.clock == nil {
		j.clock = rowtime.SystemClock{}
	}
	j.residualInput = schema
	if IsUpdateStream(cfg.Left) {
		j.residualInput = arrow.NewSchema(schema.Fields()[1:], nil)
	}
	if err := j.load(); err != nil {
		return nil, err
	}
	return j, nil
}

func (j *LookupFileJoin) Schema() *arrow.Schema { return j.schema }

// Stats counts the probe rows and the rows sent.
func (j *LookupFileJoin) Stats() Stats { return j.stats }

// Loads is how many times the table was read.
func (j *LookupFileJoin) Loads() int64 { return j.loads }

// load reads Path's state, then the table.
func (j *LookupFileJoin) load() error {
	j.checked = j.clock.Now()
	files, err := statLookupFiles(j.cfg.Path)
	if err != nil {
		return fmt.Errorf("lookup join: %w", err)
	}
	rec, err := j.cfg.Load(j.mem)
	if err != nil {
		return fmt.Errorf("lookup join: reading %s: %w", j.cfg.Path, err)
	}
	defer rec.Release()
	if !rec.Schema().Equal(j.cfg.Table) {
		return fmt.Errorf("lookup join: %s read as %s, not %s", j.cfg.Path, rec.Schema(), j.cfg.Table)
	}
	t, err := newLookupTable(rec, j.cfg, j.mem)
	if err != nil {
		return err
	}
	j.table.release()
	j.table, j.files = t, files
	j.loads++
	return nil
}

// refresh reads the table again when CheckInterval has passed since Path
// was last looked at and it changed since the table was read.
func (j *LookupFileJoin) refresh() error {
	now := j.clock.Now()
	if now.Sub(j.checked) < j.cfg.CheckInterval {
		return nil
	}
	j.checked = now
	files, err := statLookupFiles(j.cfg.Path)
	if err != nil {
		return fmt.Errorf("lookup join: %w", err)
	}
	if slices.EqualFunc(files, j.files, lookupFile.same) {
		return nil
	}
	return j.load()
}

// ProcessBatch joins each probe row with the table's rows of its key, in
// the table's order, and sends them at once, each with the watermark its
// probe row came under.
func (j *LookupFileJoin) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	j.stats.RowsIn += int64(n)
	if err := j.refresh(); err != nil {
		return err
	}
	outer := j.cfg.Kind == LeftOuter
	keys, marks := j.probeKeys.encode(rec, j.marks)
	j.marks = marks
	li, ti := j.li[:0], j.ti[:0]
	null := j.table.nullRow()
	for i, m := range marks {
		from, to := int32(0), int32(0)
		if m == 0 {
			if g, ok := j.table.groups[string(keys[i])]; ok {
				from, to = j.table.start[g], j.table.start[g+1]
			}
		}
		for _, r := range j.table.rows[from:to] {
			li, ti = append(li, int32(i)), append(ti, r)
		}
		if from == to && outer {
			li, ti = append(li, int32(i)), append(ti, null)
		}
	}
	j.li, j.ti = li, ti
	if j.cfg.Residual != nil {
		done, err := j.applyResidual(j, b, j.cfg.Residual, j.schema, j.table.nullRow(), j.cfg.Kind == LeftOuter, j.outMem)
		if done || err != nil {
			return err
		}
	}
	if len(j.li) == 0 {
		return nil
	}
	out, err := j.gather(rec, j.li, j.ti)
	if err != nil {
		return err
	}
	return j.send(out, b.Watermarks)
}

// gather builds the output rows of probe rows li of rec and table rows ti.
func (j *LookupFileJoin) gather(rec arrow.RecordBatch, li, ti []int32) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, j.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for c := range int(rec.NumCols()) {
		col, err := expr.Take(rec.Column(c), li, j.outMem)
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
	}
	for c := range int(j.table.rec.NumCols()) {
		col, err := expr.Take(j.table.rec.Column(c), ti, j.outMem)
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
	}
	return array.NewRecordBatch(j.schema, cols, int64(len(li))), nil
}

// send passes an output batch on, its rows with their probe rows'
// watermarks, and releases it.
func (j *LookupFileJoin) send(out arrow.RecordBatch, watermarks []int64) error {
	defer out.Release()
	j.stats.ResultRows += out.NumRows()
	return j.out.ProcessBatch(pipeline.Batch{Record: out, Watermarks: j.outputWatermarks(watermarks)})
}

// ProcessWatermark passes the watermark on: the output's time is the
// probe input's.
func (j *LookupFileJoin) ProcessWatermark(wm int64) error {
	if !j.watermarks.Advance(wm) {
		return nil
	}
	return j.out.ProcessWatermark(wm)
}

func (j *LookupFileJoin) ProcessEnd() error { return j.out.ProcessEnd() }

// SnapshotState writes the counters: the table is read again on restore,
// as it is when processed (Flink does not keep its lookup cache in
// checkpoints).
func (j *LookupFileJoin) SnapshotState(e *checkpoint.Encoder) error {
	checkpoint.Ints(e, []int64{j.stats.RowsIn, j.stats.ResultRows})
	return nil
}

// RestoreState reads what SnapshotState wrote into a fresh join.
func (j *LookupFileJoin) RestoreState(d *checkpoint.Decoder) error {
	st := checkpoint.ReadInts[int64](d)
	if d.Err() == nil && len(st) != 2 {
		d.Fail("lookup join counters: %d values", len(st))
	}
	if d.Err() != nil {
		return d.Err()
	}
	j.stats.RowsIn, j.stats.ResultRows = st[0], st[1]
	return nil
}

func (j *LookupFileJoin) Close() {
	if j.closed {
		return
	}
	j.closed = true
	j.table.release()
	j.outMem.Close()
}

var _ pipeline.Operator = (*LookupFileJoin)(nil)

// lookupFile is a file of the table as it was looked at.
type lookupFile struct {
	path string
	info os.FileInfo
}

func (f lookupFile) same(o lookupFile) bool {
	return f.path == o.path && os.SameFile(f.info, o.info) &&
		f.info.ModTime().Equal(o.info.ModTime()) && f.info.Size() == o.info.Size()
}

// statLookupFiles looks at the file path, or at every file under the
// directory path, in the order of their paths.
func statLookupFiles(path string) ([]lookupFile, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []lookupFile{{path, info}}, nil
	}
	var files []lookupFile
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, lookupFile{p, info})
		return nil
	})
	return files, err
}

// lookupTable is the table as read, indexed by key: the rows of key group
// g are rows[start[g]:start[g+1]], in the table's order.
type lookupTable struct {
	rec    arrow.RecordBatch // the table's rows, then one row of NULLs
	groups map[string]int32
	start  []int32
	rows   []int32
}

func newLookupTable(rec arrow.RecordBatch, cfg LookupFileConfig, mem memory.Allocator) (lookupTable, error) {
	keys := newTemporalKeyColumns(cfg.TableKeys, cfg.NullSafe)
	encoded, marks := keys.encode(rec, nil)
	t := lookupTable{groups: map[string]int32{}}
	group := make([]int32, len(marks))
	var count []int32
	for i, m := range marks {
		if m < 0 {
			group[i] = -1
			continue
		}
		g, ok := t.groups[string(encoded[i])]
		if !ok {
			g = int32(len(count))
			t.groups[string(encoded[i])] = g
			count = append(count, 0)
		}
		group[i] = g
		count[g]++
	}
	t.start = make([]int32, len(count)+1)
	for g, c := range count {
		t.start[g+1] = t.start[g] + c
	}
	t.rows = make([]int32, t.start[len(count)])
	at := append([]int32(nil), t.start[:len(count)]...)
	for i, g := range group {
		if g >= 0 {
			t.rows[at[g]] = int32(i)
			at[g]++
		}
	}
	withNull, err := appendNullRow(rec, mem)
	if err != nil {
		return lookupTable{}, err
	}
	t.rec = withNull
	return t, nil
}

// nullRow is the row of NULLs, the table's last.
func (t *lookupTable) nullRow() int32 { return int32(t.rec.NumRows() - 1) }

func (t *lookupTable) release() {
	if t.rec != nil {
		t.rec.Release()
		t.rec = nil
	}
}

// appendNullRow is rec with one row of NULLs after its rows.
func appendNullRow(rec arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	null := nullRowBatch(rec.Schema(), mem)
	defer null.Release()
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for c := range cols {
		col, err := array.Concatenate([]arrow.Array{rec.Column(c), null.Column(c)}, mem)
		if err != nil {
			return nil, err
		}
		cols[c] = col
	}
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()+1), nil
}
