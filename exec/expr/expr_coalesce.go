package expr

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Coalesce is COALESCE(a1, ..., an) and IFNULL: each row's first argument
// that is not NULL, else NULL. Every argument has the type Type (the
// planner casts them, and a cast to the common type keeps a value that is
// not NULL). Each argument is evaluated once, for the rows every earlier
// argument left NULL (an argument that can fail on exactly those rows, as
// Flink's CASE WHEN a IS NOT NULL THEN a ... does), so nesting stays linear
// where the CASE form evaluated a nested argument twice per level.
type Coalesce struct {
	Args []Expr
	Type arrow.DataType
}

func (e *Coalesce) DataType() arrow.DataType { return e.Type }
func (e *Coalesce) children() []Expr         { return e.Args }

func (e *Coalesce) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
	}
	return "COALESCE(" + strings.Join(parts, ", ") + ")"
}

func (e *Coalesce) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	undecided := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.SetBitsTo(undecided, 0, int64(n), true)
	cb, choice := NewValues[int32](mem, n)
	defer cb.Release()
	for i := range choice {
		choice[i] = -1
	}
	vals := make([]arrow.Array, 0, len(e.Args))
	defer func() { ReleaseAll(vals) }()
	left := n
	for k, a := range e.Args {
		if left == 0 {
			break
		}
		v, err := evalWhere(a, rec, mem, undecided)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
		bm, off := nullBitmap(v)
		last := k == len(e.Args)-1
		for _, i := range SelectedRows(undecided, n, nil) {
			if last || validAt(bm, off, int(i)) {
				choice[i] = int32(k)
				undecided[i>>3] &^= 1 << (i & 7)
				left--
			}
		}
	}
	return gather(e.Type, n, choice, vals, mem)
}
