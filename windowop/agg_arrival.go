package windowop

import "github.com/apache/arrow-go/v18/arrow"

// arrival numbers rows in arrival order for the aggregates that depend on
// it (FIRST_VALUE, LAST_VALUE, LISTAGG), so merging panes or sessions can
// put values back in the order the rows came. Rows carry no sequence
// number, so a row's number is the rows of earlier batches plus its index
// in its batch. A batch is recognised by its column's data: the window
// operator passes a batch in segments, and a sliding count window passes
// the same batch once per overlapping window, both with the same column.
type arrival struct {
	data arrow.ArrayData // the current batch's column
	base int64           // rows of the batches before it
	n    int64           // rows of the current batch
}

// baseOf returns the number of row 0 of col's batch.
func (a *arrival) baseOf(col arrow.Array) int64 {
	if d := col.Data(); d != a.data {
		a.base += a.n
		a.data, a.n = d, int64(col.Len())
	}
	return a.base
}
