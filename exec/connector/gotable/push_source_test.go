package gotable

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
)

var pushSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
	{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
}, nil)

// step renders one reader step for comparison.
func pushStepText(t *testing.T, b exec.SplitBatch) string {
	t.Helper()
	switch {
	case b.Record != nil:
		defer b.Record.Release()
		out := ""
		for i := range int(b.Record.NumRows()) {
			ts := b.Record.Column(0).(*array.Timestamp).Value(i)
			out += " " + time.UnixMilli(int64(ts)).UTC().Format("15:04:05") + "/" + b.Record.Column(1).ValueStr(i) + "/" + b.Record.Column(2).ValueStr(i)
		}
		return "rows" + out
	case b.HasWatermark:
		return "watermark " + time.UnixMilli(b.Watermark).UTC().Format("15:04:05")
	case b.Idle:
		return "idle"
	case b.End:
		return "end"
	}
	return "nothing new"
}

func at(s string) time.Time {
	t, err := time.Parse("15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestPushSourceKeepsEachSplitsStepsInOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	s := NewPushSource(pushSchema, mem, 2)
	second := s.AddSplit()
	require.NoError(t, s.AppendValues(ctx, 0, []any{at("09:00:01"), "a", 1}))
	require.NoError(t, s.AppendValues(ctx, 0, []any{at("09:00:02"), "b", int64(2)}))
	require.NoError(t, s.AppendValues(ctx, 0, []any{at("09:00:03"), nil, nil})) // cuts the first batch
	require.NoError(t, s.AppendMap(ctx, second, map[string]any{"TS": at("09:00:04"), "usr": []byte("c")}))
	require.NoError(t, s.Watermark(0, at("09:00:03").UnixMilli()))
	require.NoError(t, s.MarkIdle(second))
	type click struct {
		When  time.Time `wsql:"ts"`
		Usr   string
		N     *int32
		Other string `wsql:"-"`
	}
	seven := int32(7)
	require.NoError(t, s.AppendStruct(ctx, 0, &click{When: at("09:00:05"), Usr: "d", N: &seven}))

	r, err := s.Open(mem, pushSchema, 2)
	require.NoError(t, err)
	_, err = s.Open(mem, pushSchema, 2)
	require.ErrorContains(t, err, "another query is reading this pushed table")

	var got []string
	for range 6 {
		b, err := r.Next()
		require.NoError(t, err)
		got = append(got, pushStepText(t, b))
	}
	require.Equal(t, []string{
		"rows 09:00:01/a/1 09:00:02/b/2",
		"rows 09:00:03/(null)/(null)", // flushed by the watermark, before it
		"watermark 09:00:03",
		"rows 09:00:04/c/(null)", // flushed by idleness, before it
		"idle",
		"rows 09:00:05/d/7", // the builder's rows are cut when the reader would wait
	}, got)
	require.Equal(t, 2, r.NumSplits())
	require.Equal(t, int64(5), r.Stats().Rows)

	require.NoError(t, s.Close())
	for _, want := range []string{"end", "end"} {
		b, err := r.Next()
		require.NoError(t, err)
		require.Equal(t, want, pushStepText(t, b))
	}
	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)
	require.NoError(t, r.Close())
	require.ErrorIs(t, s.AppendValues(ctx, 0, []any{at("09:00:06"), "e", 1}), ErrPushClosed)
	s.Release()
}

func TestPushSourceRefusesValuesThatDoNotFit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "tiny", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 5, Scale: 2}, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	}, nil)
	s := NewPushSource(schema, mem, 8)
	defer s.Release()
	for _, c := range []struct {
		row []any
		err string
	}{
		{[]any{nil, 1, "1.5", nil}, "column ts is NOT NULL (a rowtime column is) and the value is nil"},
		{[]any{at("09:00:00"), 300, nil, nil}, "column tiny is TINYINT and 300 is out of its range"},
		{[]any{at("09:00:00"), "1", nil, nil}, "column tiny is TINYINT and cannot take the Go value 1 (string)"},
		{[]any{at("09:00:00"), 1, "1234.5", nil}, "column price is DECIMAL(5, 2) and 1234.5 does not fit in it"},
		{[]any{at("09:00:00"), 1, nil, "2024-03-01"}, "column d is DATE and cannot take the Go value 2024-03-01 (string)"},
		{[]any{at("09:00:00"), 1}, "the row has 2 values, the table has 4 columns (ts, tiny, price, d)"},
	} {
		require.EqualError(t, s.AppendValues(ctx, 0, c.row), c.err)
	}
	require.EqualError(t, s.AppendMap(ctx, 0, map[string]any{"nope": 1}), "the table has no column nope (columns: ts, tiny, price, d)")
	require.ErrorContains(t, s.AppendStruct(ctx, 0, struct{ X int }{}), "has no field for any of the table's columns")
	require.ErrorContains(t, s.AppendStruct(ctx, 0, 5), "AppendStruct takes a struct, not int")

	// nothing of a refused row was pushed; a good row is
	require.NoError(t, s.AppendValues(ctx, 0, []any{at("09:00:00"), int8(-3), "12.5", time.Date(2024, 3, 1, 23, 0, 0, 0, time.FixedZone("x", 5*3600))}))
	require.NoError(t, s.Close())
	r, err := s.Open(mem, schema, 8)
	require.NoError(t, err)
	defer r.Close()
	b, err := r.Next()
	require.NoError(t, err)
	defer b.Record.Release()
	require.Equal(t, int64(1), b.Record.NumRows())
	require.Equal(t, "-3", b.Record.Column(1).ValueStr(0))
	require.Equal(t, "12.5", b.Record.Column(2).ValueStr(0))
	require.Equal(t, "2024-03-01", b.Record.Column(3).ValueStr(0))
}

func TestPushSourceAppendChecksBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	s := NewPushSource(pushSchema, mem, 8)
	defer s.Release()

	other := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}}, pushSchema.Field(1), pushSchema.Field(2)}, nil)
	b := array.NewRecordBuilder(mem, other)
	defer b.Release()
	b.Field(0).AppendNull()
	b.Field(1).AppendNull()
	b.Field(2).AppendNull()
	rec := b.NewRecordBatch()
	defer rec.Release()
	require.EqualError(t, s.Append(ctx, 0, rec), "column ts is timestamp[us], the table declares timestamp[ms]")

	b2 := array.NewRecordBuilder(mem, pushSchema)
	defer b2.Release()
	b2.Field(0).AppendNull()
	b2.Field(1).AppendNull()
	b2.Field(2).AppendNull()
	rec2 := b2.NewRecordBatch()
	defer rec2.Release()
	require.EqualError(t, s.Append(ctx, 0, rec2), "column ts is NOT NULL (a rowtime column is) and the batch has 1 nulls in it")
	b2.Field(0).(*array.TimestampBuilder).Append(0)
	b2.Field(1).AppendNull()
	b2.Field(2).AppendNull()
	rec3 := b2.NewRecordBatch()
	defer rec3.Release()
	require.EqualError(t, s.Append(ctx, 3, rec3), "split 3 does not exist (the table has 1)")
}

func TestPushSourceBlocksWhileTheQueueIsFull(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := NewPushSource(pushSchema, mem, 1) // the queue holds 16 rows
	defer s.Release()
	ctx := context.Background()
	for i := range 17 {
		require.NoError(t, s.AppendValues(ctx, 0, []any{at("09:00:00").Add(time.Duration(i) * time.Second), "a", i}))
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	require.ErrorIs(t, s.AppendValues(short, 0, []any{at("09:01:00"), "a", 1}), context.DeadlineExceeded)

	// a reader makes room, and the blocked producer goes on
	done := make(chan error)
	go func() { done <- s.AppendValues(ctx, 0, []any{at("09:01:00"), "a", 1}) }()
	r, err := s.Open(mem, pushSchema, 1)
	require.NoError(t, err)
	defer r.Close()
	b, err := r.Next()
	require.NoError(t, err)
	b.Record.Release()
	require.NoError(t, <-done)
}

func TestPushReaderStopsWithItsContext(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	s := NewPushSource(pushSchema, mem, 4)
	defer s.Release()
	r, err := s.Open(mem, pushSchema, 4)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	r.(*pushReader).Follow(ctx)
	b, err := r.Next() // nothing pushed: the reader reports nothing new after a while
	require.NoError(t, err)
	require.Equal(t, "nothing new", pushStepText(t, b))
	cancel()
	_, err = r.Next()
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, r.Close())
	// the table can be read again by the next query
	r, err = s.Open(mem, pushSchema, 4)
	require.NoError(t, err)
	require.NoError(t, r.Close())
}

// A pushed table cannot resume from a saved position: a job over it is
// refused a checkpoint up front. Its reader waits on the query's context.
func TestPushSourceCannotResume(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	push := NewPushSource(pushSchema, memory.NewGoAllocator(), 10)
	defer push.Release()
	src := &exec.MakerSource{Maker: push, SourceSpec: exec.SourceSpec{Schema: pushSchema}}
	_, err := src.Open(mem, checkpoint.NewDecoder(nil))
	require.ErrorIs(t, err, exec.ErrCheckpointUnsupported)
	require.ErrorContains(t, src.Checkpointable(), "cannot resume from a position")

	r, err := push.Open(mem, pushSchema, 10)
	require.NoError(t, err)
	defer r.Close()
	require.Implements(t, (*exec.Follower)(nil), r)
}

// An interval column takes a time.Duration (day-time: its milliseconds)
// or a Go integer of months (year-month).
func TestPushSourceTakesIntervals(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
		{Name: "d", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true},
		{Name: "m", Type: arrow.FixedWidthTypes.MonthInterval, Nullable: true},
	}, nil)
	s := NewPushSource(schema, mem, 8)
	defer s.Release()
	require.EqualError(t, s.AppendValues(ctx, 0, []any{at("09:00:00"), 5, nil}), "column d is INTERVAL DAY TO SECOND(3) and cannot take the Go value 5 (int)")
	require.EqualError(t, s.AppendValues(ctx, 0, []any{at("09:00:00"), nil, time.Second}), "column m is INTERVAL YEAR TO MONTH and cannot take the Go value 1s (time.Duration)")
	require.NoError(t, s.AppendValues(ctx, 0, []any{at("09:00:00"), 90*time.Minute + 1500*time.Microsecond, int16(-14)}))
	require.NoError(t, s.AppendValues(ctx, 0, []any{at("09:00:01"), nil, nil}))
	require.NoError(t, s.Close())
	r, err := s.Open(mem, schema, 8)
	require.NoError(t, err)
	defer r.Close()
	b, err := r.Next()
	require.NoError(t, err)
	defer b.Record.Release()
	require.Equal(t, "[5400001 (null)]", b.Record.Column(1).String(), "milliseconds, truncated")
	require.Equal(t, "[-14 (null)]", b.Record.Column(2).String(), "months")
}
