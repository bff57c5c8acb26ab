package rankop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Mode is the rank a Rank operator computes.
type Mode int

const (
	// TopN keeps the rows ranked Start..End by Order within each
	// partition (by Type: ROW_NUMBER with ties by arrival, RANK or
	// DENSE_RANK), an update stream.
	TopN Mode = iota
	// FirstByArrival keeps each partition's first row (ORDER BY a
	// processing-time attribute ASC, rank 1): append-only.
	FirstByArrival
	// LastByArrival keeps each partition's last row (processing time
	// DESC): an update stream.
	LastByArrival
	// FirstByTime keeps each partition's row of the smallest event time,
	// the first of equal ones (ORDER BY the rowtime ASC, rank 1), emitted
	// once the watermark reaches it: append-only.
	FirstByTime
	// LastByTime keeps each partition's row of the largest event time,
	// the last of equal ones (rowtime DESC): an update stream.
	LastByTime
)

// Config describes a rank over an append-only input.
type Config struct {
	Input     *arrow.Schema
	Partition []int     // partition key columns; none: one partition
	Order     []SortKey // TopN's sort keys
	Rowtime   int       // FirstByTime and LastByTime: the event-time column
	// Start and End are TopN's rank range, from 1, both included.
	Start, End int64
	// Type is TopN's rank function: ROW_NUMBER (the zero value), RANK
	// or DENSE_RANK.
	Type RankType
	// RankName, when set, appends the row's rank as a BIGINT column of
	// that name (TopN only).
	RankName string
	Mode     Mode
	// Output are the input columns the rank keeps and emits, in order;
	// nil is all of them.
	Output []int
	// StateTTL ('table.exec.state.ttl', ms): a partition's state is
	// dropped once no row has come for it for that long, read on Clock;
	// 0 keeps it.
	StateTTL int64
	Clock    rowtime.Clock
	// Window, when set, makes the rank a window rank (window_rank.go):
	// its partitions are windows, each ranked once when it closes.
	Window *WindowColumns
}

// output is the indexes of the emitted input columns.
func (c Config) output() []int {
	if c.Output != nil {
		return c.Output
	}
	all := make([]int, c.Input.NumFields())
	for i := range all {
		all[i] = i
	}
	return all
}

// keptSchema is the schema of the rows the rank keeps.
func (c Config) keptSchema() *arrow.Schema {
	var fields []arrow.Field
	for _, i := range c.output() {
		fields = append(fields, c.Input.Field(i))
	}
	return arrow.NewSchema(fields, nil)
}

// Updates reports whether the output is an update stream.
func (c Config) Updates() bool {
	return c.Window == nil && c.Mode != FirstByArrival && c.Mode != FirstByTime
}

func (c Config) check() error {
	if c.Input == nil {
		return fmt.Errorf("rank: no input schema")
	}
	for _, k := range c.Partition {
		if k < 0 || k >= c.Input.NumFields() {
			return fmt.Errorf("rank: partition column %d out of range", k)
		}
		if err := checkSortable(c.Input.Field(k).Type); err != nil {
			return err
		}
	}
	switch c.Mode {
	case TopN:
		if c.Start < 1 || c.End < c.Start {
			return fmt.Errorf("rank range %d to %d is empty", c.Start, c.End)
		}
		if len(c.Order) == 0 {
			return fmt.Errorf("Top-N needs an ORDER BY")
		}
		for _, k := range c.Order {
			if k.Index < 0 || k.Index >= c.Input.NumFields() {
				return fmt.Errorf("rank: sort column %d out of range", k.Index)
			}
			if err := checkSortable(c.Input.Field(k.Index).Type); err != nil {
				return err
			}
		}
	case FirstByTime, LastByTime:
		if c.Rowtime < 0 || c.Rowtime >= c.Input.NumFields() {
			return fmt.Errorf("rank: rowtime column %d out of range", c.Rowtime)
		}
		if c.Input.Field(c.Rowtime).Type.ID() != arrow.TIMESTAMP {
			return fmt.Errorf("rank: rowtime column %s is not a timestamp", c.Input.Field(c.Rowtime).Name)
		}
	}
	for _, i := range c.Output {
		if i < 0 || i >= c.Input.NumFields() {
			return fmt.Errorf("rank: output column %d out of range", i)
		}
	}
	if c.RankName != "" && c.Mode != TopN && c.Window == nil {
		return fmt.Errorf("rank: only Top-N outputs the rank")
	}
	if c.Type != RowNumber && c.Mode != TopN {
		return fmt.Errorf("rank: %s ranks only a Top-N", c.Type)
	}
	if c.Window != nil {
		return c.checkWindow()
	}
	return nil
}

// OutputSchema is the input's columns, led by the row kind (op) for an
// update stream and followed by the rank when RankName is set.
func (c Config) OutputSchema() (*arrow.Schema, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	var fields []arrow.Field
	if c.Updates() {
		fields = append(fields, windowop.RowKindField())
	}
	fields = append(fields, c.keptSchema().Fields()...)
	if c.RankName != "" {
		fields = append(fields, arrow.Field{Name: c.RankName, Type: arrow.PrimitiveTypes.Int64})
	}
	return arrow.NewSchema(fields, nil), nil
}
