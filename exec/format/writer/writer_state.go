package writer

import (
	"github.com/wsql/wsql/checkpoint"
)

// ResumableWriter is a result writer whose own state a checkpoint records,
// so that a run restored from it continues the output as an uninterrupted
// run would: the CSV header is not written twice, a table keeps its column
// widths and its row count for the closing line. The Arrow IPC writer is
// not one: a stream's schema message opens it and cannot be written again
// in the middle.
type ResumableWriter interface {
	ResultWriter
	// Format names the output format ("csv", "json", "table"): a state
	// is restored only into a writer of the same format.
	Format() string
	SaveState(e *checkpoint.Encoder)
	// RestoreState reads what SaveState wrote into a fresh writer of the
	// same schema, before its first batch; it fails d when it does not fit.
	RestoreState(d *checkpoint.Decoder)
}

var (
	_ ResumableWriter = (*csvWriter)(nil)
	_ ResumableWriter = (*jsonWriter)(nil)
	_ ResumableWriter = (*tableWriter)(nil)
)

func (c *csvWriter) Format() string  { return "csv" }
func (j *jsonWriter) Format() string { return "json" }
func (t *tableWriter) Format() string {
	if t.plain {
		return "changelog"
	}
	return "table"
}

// SaveState records whether the header is written.
func (c *csvWriter) SaveState(e *checkpoint.Encoder) { e.Bool(c.header) }

func (c *csvWriter) RestoreState(d *checkpoint.Decoder) { c.header = d.Bool() }

// JSON lines have no state between batches.
func (j *jsonWriter) SaveState(*checkpoint.Encoder)      {}
func (j *jsonWriter) RestoreState(d *checkpoint.Decoder) {}

// SaveState records whether the header is printed, the rows so far and
// each column's width.
func (t *tableWriter) SaveState(e *checkpoint.Encoder) {
	e.Bool(t.started)
	e.Int(t.rows)
	checkpoint.Ints(e, t.widths)
}

func (t *tableWriter) RestoreState(d *checkpoint.Decoder) {
	started, rows, widths := d.Bool(), d.Int(), checkpoint.ReadInts[int](d)
	if d.Err() != nil {
		return
	}
	if len(widths) != len(t.widths) {
		d.Fail("a table of %d columns restored into one of %d", len(widths), len(t.widths))
		return
	}
	for j, w := range widths {
		if w < t.widths[j] {
			d.Fail("column %d is %d wide, narrower than its header or type (%d)", j+1, w, t.widths[j])
			return
		}
	}
	if rows < 0 {
		d.Fail("a table of %d rows", rows)
		return
	}
	t.started, t.rows = started, rows
	copy(t.widths, widths)
}
