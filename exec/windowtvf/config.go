package windowtvf

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/windowop"
)

// Kind is the window function.
type Kind int

// The window functions a row can be assigned by without state.
const (
	Tumble Kind = iota
	Hop
	Cumulate
)

// Config describes the windows rows are assigned to.
type Config struct {
	Input        *arrow.Schema
	RowtimeIndex int   // the time attribute the windows are over (no NULLs)
	Kind         Kind  // TUMBLE, HOP or CUMULATE
	Size         int64 // ms
	Slide        int64 // ms; HOP
	Step         int64 // ms; CUMULATE
	Offset       int64 // ms
	// Local aligns windows in the session time zone (a TIMESTAMP_LTZ
	// rowtime outside UTC); nil aligns them in UTC.
	Local *rowtime.LocalTime
}

// OutputSchema is the input's columns followed by window_start,
// window_end and window_time: TIMESTAMP(3) bounds, and a window_time of
// the rowtime's type (TIMESTAMP_LTZ(3) stays an instant), as Flink.
func (c Config) OutputSchema() (*arrow.Schema, error) {
	if c.RowtimeIndex < 0 || c.RowtimeIndex >= c.Input.NumFields() {
		return nil, fmt.Errorf("rowtime index %d out of range", c.RowtimeIndex)
	}
	rt := c.Input.Field(c.RowtimeIndex).Type
	if !rowtime.IsRowtimeType(rt) {
		return nil, fmt.Errorf("rowtime column %q must be a millisecond timestamp, got %s", c.Input.Field(c.RowtimeIndex).Name, rt)
	}
	bounds := &arrow.TimestampType{Unit: arrow.Millisecond}
	fields := append([]arrow.Field(nil), c.Input.Fields()...)
	fields = append(fields,
		arrow.Field{Name: windowop.ColWindowStart, Type: bounds},
		arrow.Field{Name: windowop.ColWindowEnd, Type: bounds},
		arrow.Field{Name: windowop.ColWindowTime, Type: rt})
	return arrow.NewSchema(fields, nil), nil
}

// check refuses windows the assignment cannot run.
func (c Config) check() error {
	switch c.Kind {
	case Tumble:
		_, err := windowop.NewTumble(c.Size, c.Offset)
		return err
	case Hop:
		_, err := windowop.NewHop(c.Slide, c.Size, c.Offset)
		return err
	case Cumulate:
		_, err := windowop.NewCumulate(c.Step, c.Size, c.Offset)
		return err
	}
	return fmt.Errorf("unknown window kind %d", c.Kind)
}
