package rowtime_test

import (
	"fmt"

	"github.com/wsql/wsql/rowtime"
)

// Two files ten minutes apart, read one batch each in turn: the source's
// watermark follows the file that lags, so none of its rows is late.
func ExampleCombinedWatermark() {
	wm := rowtime.NewCombinedWatermark(2, 1000, 0, nil)
	perRow := make([]int64, 2)

	wm.Assign(0, []int64{600_000, 601_000}, perRow) // the later file first
	fmt.Println(perRow[1] == rowtime.MinWatermark, wm.Current() == rowtime.MinWatermark)

	wm.Assign(1, []int64{0, 2000}, perRow)
	fmt.Println(perRow, wm.Current())

	fmt.Println(wm.EndSplit(1)) // the lagging file ends: it holds nothing back
	// Output:
	// true true
	// [-9223372036854775808 -1000] 1000
	// 600000
}
