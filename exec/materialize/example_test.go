package materialize_test

import (
	"fmt"
	"slices"

	"github.com/wsql/wsql/exec/materialize"
	"github.com/wsql/wsql/exec/rowkind"
)

// The changes of SELECT name, COUNT(*) ... GROUP BY name over Bob, Alice,
// Greg, Bob, as in Flink's SQL client documentation: the view holds the
// result as it stands, Bob's updated row last.
func ExampleView() {
	type count struct {
		name string
		n    int
	}
	v := materialize.NewView[count]()
	for _, c := range []struct {
		kind rowkind.Kind
		row  count
	}{
		{rowkind.Insert, count{"Bob", 1}},
		{rowkind.Insert, count{"Alice", 1}},
		{rowkind.Insert, count{"Greg", 1}},
		{rowkind.UpdateBefore, count{"Bob", 1}},
		{rowkind.UpdateAfter, count{"Bob", 2}},
	} {
		v.Apply(c.kind, fmt.Sprint(c.row), c.row) // the key: the whole row
	}
	fmt.Println(v.Len(), slices.Collect(v.All()))
	// Output: 3 [{Alice 1} {Greg 1} {Bob 2}]
}
