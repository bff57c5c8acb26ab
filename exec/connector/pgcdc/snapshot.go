package pgcdc

import (
	"bytes"
	"slices"
	"strconv"
	"time"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/windowop"
)

// A checkpoint may be taken while the snapshot is handed out, a batch at
// a time. The exported snapshot does not outlive its connection, so a
// restart from such a checkpoint takes a new one, with a new slot, and
// must turn what the first one handed out into the new one's rows. The
// read therefore keeps, during the snapshot only, the rows it handed out
// by the table's PRIMARY KEY (the view downstream holds), in the
// checkpoint too; the new snapshot's rows are +I where the key is new,
// nothing where the row is the same, -U and +U where it changed, and the
// keys it does not have are -D at its end.

// snapshotView is what the read's snapshots handed out: the rows by key,
// in text form, and the keys the current snapshot has handed out.
type snapshotView struct {
	rows    map[string][][]byte
	visited map[string]bool
}

func newSnapshotView() *snapshotView {
	return &snapshotView{rows: map[string][][]byte{}, visited: map[string]bool{}}
}

// rowKey encodes the key columns of a row of the snapshot's layout.
func (r *reader) rowKey(vals [][]byte) string {
	var b []byte
	for _, c := range r.src.key {
		v := vals[r.snap.index[c]]
		if v == nil {
			b = append(b, 'n')
			continue
		}
		b = strconv.AppendInt(append(b, 'v'), int64(len(v)), 10)
		b = append(append(b, ':'), v...)
	}
	return string(b)
}

// snapshotRow hands out a row of the snapshot against the view.
func (r *reader) snapshotRow(vals [][]byte) error {
	v := r.view
	k := r.rowKey(vals)
	old, had := v.rows[k]
	v.visited[k] = true
	epoch := time.Unix(0, 0)
	switch {
	case !had:
		if err := r.appendRow(windowop.Insert, r.snap, vals, epoch); err != nil {
			return err
		}
	case slices.EqualFunc(old, vals, func(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }):
		return nil
	default:
		if err := r.appendRow(windowop.UpdateBefore, r.snap, old, epoch); err != nil {
			return err
		}
		if err := r.appendRow(windowop.UpdateAfter, r.snap, vals, epoch); err != nil {
			return err
		}
	}
	kept := make([][]byte, len(vals))
	for i, x := range vals {
		if x != nil {
			kept[i] = slices.Clone(x)
			if kept[i] == nil {
				kept[i] = []byte{}
			}
		}
	}
	v.rows[k] = kept
	return nil
}

// retractUnvisited hands out -D for the rows an earlier snapshot handed
// out whose keys the last one does not have.
func (r *reader) retractUnvisited() error {
	keys := make([]string, 0, len(r.view.rows))
	for k := range r.view.rows {
		if !r.view.visited[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := r.appendRow(windowop.Delete, r.snap, r.view.rows[k], time.Unix(0, 0)); err != nil {
			return err
		}
	}
	return nil
}

func (v *snapshotView) save(e *checkpoint.Encoder) {
	keys := make([]string, 0, len(v.rows))
	for k := range v.rows {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same state, the same bytes
	e.Uint(uint64(len(keys)))
	for _, k := range keys {
		e.String(k)
		row := v.rows[k]
		e.Uint(uint64(len(row)))
		for _, x := range row {
			e.Bool(x != nil)
			if x != nil {
				e.Bytes(x)
			}
		}
	}
}

func loadSnapshotView(d *checkpoint.Decoder) *snapshotView {
	v := newSnapshotView()
	for n := d.Len(2); n > 0 && d.Err() == nil; n-- {
		k := d.String()
		row := make([][]byte, d.Len(1))
		for i := range row {
			if d.Bool() {
				row[i] = append([]byte{}, d.Bytes()...)
			}
		}
		v.rows[k] = row
	}
	return v
}
