package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/checkpoint"
)

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

// save writes the number the next batch's first row gets. Checkpoints are
// taken between batches, so the current batch is done with: after load,
// the next column is a new batch, as it would have been here.
func (a *arrival) save(e *checkpoint.Encoder) { e.Int(a.base + a.n) }

func (a *arrival) load(d *checkpoint.Decoder) {
	next := d.Int()
	if next < 0 {
		d.Fail("negative arrival number %d", next)
	}
	*a = arrival{base: next}
}
