package windowop

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
)

// The state of MIN, MAX and DISTINCT under retraction keeps no memory of
// a batch once the batch is done: each row comes in a batch of its own
// whose strings are overwritten after it, as a producer that reuses its
// buffers does. A value counted again from a later batch (the third row)
// must not leave the state pointing into that batch.
func TestRetractStateOwnsItsStrings(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{RowKindField(), {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := &recorder{}
	op, err := NewGroupOperator(GroupConfig{Input: schema, Retract: true, Aggs: []AggSpec{
		{Kind: Max, Input: 1}, {Kind: Min, Input: 1}, {Kind: Count, Input: 1, Distinct: true},
		{Kind: ListAgg, Input: 1, Distinct: true},
	}}, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	rows := []struct {
		kind RowKind
		s    string
	}{{Insert, "a"}, {Insert, "b"}, {Insert, "c"}, {Insert, "b"}, {Delete, "c"}, {Delete, "b"}, {Delete, "b"}}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.StringBuilder).Append(string(r.kind))
		b.Field(1).(*array.StringBuilder).Append(r.s)
		in := b.NewRecordBatch()
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: in}))
		poison(in.Column(1).(*array.String).ValueBytes())
		in.Release()
	}
	got := slices.DeleteFunc(rec.events, func(e string) bool { return !strings.HasPrefix(e, "row ") })
	require.Equal(t, []string{
		"row +I a a 1 a",
		"row -U a a 1 a", "row +U b a 2 ab",
		"row -U b a 2 ab", "row +U c a 3 abc",
		// the second b changes no result, nor does taking out one of the two
		"row -U c a 3 abc", "row +U b a 2 ab",
		"row -U b a 2 ab", "row +U a a 1 a",
	}, got)
}

// poison overwrites a released batch's bytes, as the next batch would.
func poison(b []byte) {
	for i := range b {
		b[i] = 'z'
	}
}
