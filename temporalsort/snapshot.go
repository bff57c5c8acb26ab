package temporalsort

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/wsql/wsql/checkpoint"
)

// SnapshotState writes the watermark, the late count and the rows held
// (as an Arrow IPC stream), so a restored run releases the same rows.
func (o *Operator) SnapshotState(e *checkpoint.Encoder) error {
	e.Int(o.wm)
	e.Int(o.late)
	var b bytes.Buffer
	w := ipc.NewWriter(&b, ipc.WithSchema(o.cfg.Input), ipc.WithAllocator(o.mem))
	for _, r := range o.buf {
		if err := w.Write(r); err != nil {
			w.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	e.Bytes(b.Bytes())
	return nil
}

// RestoreState reads what SnapshotState wrote into a new operator.
func (o *Operator) RestoreState(d *checkpoint.Decoder) error {
	wm, late, data := d.Int(), d.Int(), d.Bytes()
	if d.Err() != nil {
		return d.Err()
	}
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(o.mem))
	if err != nil {
		return fmt.Errorf("temporal sort: %w", err)
	}
	defer r.Release()
	if !r.Schema().Equal(o.cfg.Input) {
		d.Fail("the sorted rows' columns changed")
		return d.Err()
	}
	o.clearBuf()
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		o.buf = append(o.buf, rec)
	}
	if err := r.Err(); err != nil {
		o.clearBuf()
		return fmt.Errorf("temporal sort: %w", err)
	}
	o.wm, o.late = wm, late
	if wm != minWatermark {
		o.watermarks.Advance(wm)
	}
	return nil
}
