package joinop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Kind is the join type.
type Kind int

const (
	Inner Kind = iota
	LeftOuter
	RightOuter
	FullOuter
	// Semi emits a left row while some right row matches it (IN, EXISTS).
	Semi
	// Anti emits a left row while no right row matches it (NOT IN, NOT
	// EXISTS).
	Anti
)

// String is the join type as EXPLAIN writes it (Flink's joinType).
func (k Kind) String() string {
	return [...]string{"InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin", "LeftSemiJoin", "LeftAntiJoin"}[k]
}

// leftOuter and rightOuter tell which sides keep rows without a match,
// padded with NULLs.
func (k Kind) leftOuter() bool  { return k == LeftOuter || k == FullOuter }
func (k Kind) rightOuter() bool { return k == RightOuter || k == FullOuter }

// Config describes a join of two inputs.
type Config struct {
	Kind Kind
	// Left and Right are the inputs' schemas. An update stream's first
	// column is its row kind (windowop.IsRowKindField); every other column
	// is data.
	Left, Right *arrow.Schema
	// LeftKeys[i] of Left equals RightKeys[i] of Right: the equality
	// conditions of ON, which the state is keyed by. A NULL key matches
	// nothing unless NullSafe[i] (IS NOT DISTINCT FROM); NullSafe may be
	// nil. No keys is a join of every pair (a cross join, one key group).
	LeftKeys, RightKeys []int
	NullSafe            []bool
	// Residual, when set, is the rest of the ON condition: a BOOLEAN over
	// the joined row, which is Left's data columns, then Right's (DataColumns).
	// A pair joins when it is TRUE.
	Residual expr.Expr
	// StateTTL is 'table.exec.state.ttl' in milliseconds for the regular
	// join: a row goes once it has been kept that long without being
	// touched (Clock's time); 0 keeps rows. Expired rows are counted.
	StateTTL int64
	Clock    rowtime.Clock
	// Interval, when set, makes this an interval join; Window a window
	// join. Neither is the regular join.
	Interval *Interval
	Window   *Window
	// Temporal, when set, makes this an event-time temporal join (FOR
	// SYSTEM_TIME AS OF): Right is a versioned table.
	Temporal *Temporal
}

// Interval is the time condition of an interval join: a left row l and a
// right row r join when r.time + Lower <= l.time <= r.time + Upper (Flink's
// bounds of l.time - r.time), both times in milliseconds of the columns
// LeftTime and RightTime, each its input's time attribute.
type Interval struct {
	LeftTime, RightTime int
	Lower, Upper        int64
}

// Window is the window of a window join: both inputs are window table
// function results (or aggregations over them), and rows join only within
// the same window, whose start and end columns are these.
type Window struct {
	LeftStart, LeftEnd, RightStart, RightEnd int
}

// Temporal is an event-time temporal join's time: a left row joins the
// version of the right row of its key (RightKeys are the versioned
// table's primary key) that was valid at the left row's time, the column
// LeftTime; a version is valid from its RightTime until the next version
// of its key (or a -U/-D of it). Only INNER and LEFT OUTER.
type Temporal struct {
	LeftTime, RightTime int
}

// DataColumns are the indexes of a schema's data columns: all but an
// update stream's row kind.
func DataColumns(s *arrow.Schema) []int {
	var cols []int
	for i, f := range s.Fields() {
		if !windowop.IsRowKindField(f) {
			cols = append(cols, i)
		}
	}
	return cols
}

// IsUpdateStream reports whether a schema is an update stream's: its first
// column is the row kind.
func IsUpdateStream(s *arrow.Schema) bool {
	return s.NumFields() > 0 && windowop.IsRowKindField(s.Field(0))
}

// Updates reports whether the join's output is an update stream: a
// regular join with an outer side or an update-stream input, and the
// regular anti join (a left row emitted goes when its first match comes).
// Interval and window joins are append-only; a temporal join's rows keep
// the kinds of its left rows.
func (c Config) Updates() bool {
	if c.Temporal != nil {
		return IsUpdateStream(c.Left)
	}
	if c.Interval != nil || c.Window != nil {
		return false
	}
	return c.Kind == LeftOuter || c.Kind == RightOuter || c.Kind == FullOuter || c.Kind == Anti ||
		IsUpdateStream(c.Left) || IsUpdateStream(c.Right)
}

// OutputSchema is the row kind when the output updates, then Left's data
// columns, then Right's (only Left's for SEMI and ANTI). A column of the
// side an outer join pads is nullable.
func (c Config) OutputSchema() (*arrow.Schema, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	var fields []arrow.Field
	if c.Updates() {
		fields = append(fields, windowop.RowKindField())
	}
	for _, i := range DataColumns(c.Left) {
		f := c.Left.Field(i)
		f.Nullable = f.Nullable || c.Kind.rightOuter()
		fields = append(fields, f)
	}
	if c.Kind != Semi && c.Kind != Anti {
		for _, i := range DataColumns(c.Right) {
			f := c.Right.Field(i)
			f.Nullable = f.Nullable || c.Kind.leftOuter()
			fields = append(fields, f)
		}
	}
	return arrow.NewSchema(fields, nil), nil
}

func (c Config) check() error {
	if c.Left == nil || c.Right == nil {
		return fmt.Errorf("join: both inputs need a schema")
	}
	if len(c.LeftKeys) != len(c.RightKeys) || c.NullSafe != nil && len(c.NullSafe) != len(c.LeftKeys) {
		return fmt.Errorf("join: %d left keys, %d right keys", len(c.LeftKeys), len(c.RightKeys))
	}
	for i, l := range c.LeftKeys {
		r := c.RightKeys[i]
		if l < 0 || l >= c.Left.NumFields() || r < 0 || r >= c.Right.NumFields() {
			return fmt.Errorf("join: key %d is out of range", i)
		}
		if lt, rt := c.Left.Field(l).Type, c.Right.Field(r).Type; !arrow.TypeEqual(lt, rt) {
			return fmt.Errorf("join: key %d compares %s with %s", i, lt, rt)
		}
	}
	if n := countSet(c.Interval != nil, c.Window != nil, c.Temporal != nil); n > 1 {
		return fmt.Errorf("join: a join is one of regular, interval, window or temporal")
	}
	if c.Temporal != nil && c.Kind != Inner && c.Kind != LeftOuter {
		return fmt.Errorf("join: a temporal join is INNER or LEFT, not %s", c.Kind)
	}
	return nil
}

func countSet(flags ...bool) int {
	n := 0
	for _, f := range flags {
		if f {
			n++
		}
	}
	return n
}

// Stats counts what a join did.
type Stats struct {
	RowsIn, ResultRows int64
	// LateRows are rows an interval or window join dropped because the
	// watermark had passed what they could still join with.
	LateRows int64
	// ExpiredRows are rows the regular join's state TTL removed.
	ExpiredRows int64
	// LookupHits and LookupMisses are the probe rows a lookup join's cache
	// held the key of, and those whose key it fetched (lookup.Cache).
	LookupHits, LookupMisses int64
}

// Operator is a running join.
type Operator interface {
	pipeline.TwoInput
	// Schema is the schema of the batches it emits (OutputSchema).
	Schema() *arrow.Schema
	Stats() Stats
	// SnapshotState writes the join's state; RestoreState reads it into
	// a fresh operator of the same Config (an error wrapping
	// checkpoint.ErrCorrupt when it does not fit).
	SnapshotState(e *checkpoint.Encoder) error
	RestoreState(d *checkpoint.Decoder) error
}

// New builds the running join of cfg, sending its rows to out.
func New(cfg Config, mem memory.Allocator, out pipeline.Operator) (Operator, error) {
	if _, err := cfg.OutputSchema(); err != nil {
		return nil, err
	}
	switch {
	case cfg.Interval != nil:
		return newIntervalJoin(cfg, mem, out)
	case cfg.Window != nil:
		return newWindowJoin(cfg, mem, out)
	case cfg.Temporal != nil:
		return newTemporalJoin(cfg, mem, out)
	}
	return newRegularJoin(cfg, mem, out)
}
