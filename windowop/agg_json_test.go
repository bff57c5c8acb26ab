package windowop

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// JSON_ARRAYAGG and JSON_OBJECTAGG read the items JSON_ARRAY and
// JSON_OBJECT wrote: one-element arrays and one-member objects, [] and {}
// for an absent item (ABSENT ON NULL).
func TestJSONAggregates(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	// Flink's example: '["Apple","Banana","Orange"]', in arrival order.
	arr := feed(t, mem, AggSpec{Kind: JSONArrayAgg}, tStr, 2,
		[]any{`["Apple"]`, `[]`, `["Banana"]`, `[null]`, `["Orange"]`, `[]`}, []int32{0, 0, 0, 0, 0, 1})
	require.Equal(t, []string{`["Apple","Banana",null,"Orange"]`, `[]`}, results(t, mem, arr, 0, 1))

	// Flink's example: '{"Apple":2,"Banana":17,"Orange":0}', keys sorted
	// by their text ("a b" before "a!" as in Java, not by the quoted form).
	obj := feed(t, mem, AggSpec{Kind: JSONObjectAgg}, tStr, 3,
		[]any{`{"Orange":0}`, `{"Banana":17}`, `{}`, `{"Apple":2}`, `{"a!":1}`, `{"a b":2}`, `{"k":1}`, `{"k":2}`},
		[]int32{0, 0, 0, 0, 1, 1, 2, 2})
	require.Equal(t, []string{`{"Apple":2,"Banana":17,"Orange":0}`, `{"a b":2,"a!":1}`}, results(t, mem, obj, 0, 1))
	require.NoError(t, obj.(failer).failed())
	results(t, mem, obj, 2)
	require.ErrorContains(t, obj.(failer).failed(), `JSON_OBJECTAGG: the key "k" occurs more than once`)

	// Merging panes keeps arrival order.
	arr.merge(1, 0)
	require.Equal(t, []string{`["Apple","Banana",null,"Orange"]`}, results(t, mem, arr, 1))
	require.True(t, arr.sameResult(0, 1))
}
