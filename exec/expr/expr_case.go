package expr

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Case is the searched CASE WHEN c1 THEN r1 ... [ELSE e] END; the planner
// lowers simple CASE, COALESCE, NULLIF and IF onto it. Every result has the
// type Type (the planner casts them). A row takes the first WHEN that is
// TRUE (NULL is not TRUE); with no ELSE, a row no WHEN takes is NULL.
//
// Evaluation is column-at-a-time: each condition is evaluated for the rows
// still undecided, each result for the rows that take it (only a result
// that can fail is computed on exactly those rows), then one gather loop
// picks every row's value from its branch.
type Case struct {
	Whens []Expr
	Thens []Expr
	Else  Expr // nil for NULL
	Type  arrow.DataType
}

func (e *Case) DataType() arrow.DataType { return e.Type }

func (e *Case) children() []Expr {
	out := append(append([]Expr(nil), e.Whens...), e.Thens...)
	if e.Else != nil {
		out = append(out, e.Else)
	}
	return out
}

func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for i := range e.Whens {
		fmt.Fprintf(&b, " WHEN %s THEN %s", e.Whens[i], e.Thens[i])
	}
	if e.Else != nil {
		fmt.Fprintf(&b, " ELSE %s", e.Else)
	}
	b.WriteString(" END")
	return b.String()
}

func (e *Case) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	nb := int(bitutil.BytesForBits(int64(n)))
	undecided := make([]byte, nb)
	bitutil.SetBitsTo(undecided, 0, int64(n), true)
	cb, choice := NewValues[int32](mem, n)
	defer cb.Release()
	for i := range choice {
		choice[i] = -1
	}
	branches := make([][]byte, 0, len(e.Thens)+1)
	for k, w := range e.Whens {
		c, err := evalWhere(w, rec, mem, undecided)
		if err != nil {
			return nil, err
		}
		v, _ := boolParts(c.(*array.Boolean))
		c.Release()
		taken := make([]byte, nb)
		for i := range taken {
			taken[i] = v[i] & undecided[i]
			undecided[i] &^= taken[i]
		}
		if all, ok := e.whole(e.Thens[k], taken, n); ok {
			return evalWhere(all, rec, mem, taken)
		}
		for _, i := range SelectedRows(taken, n, nil) {
			choice[i] = int32(k)
		}
		branches = append(branches, taken)
	}
	results := e.Thens
	if all, ok := e.whole(e.Else, undecided, n); ok {
		return evalWhere(all, rec, mem, undecided)
	}
	if e.Else != nil {
		for _, i := range SelectedRows(undecided, n, nil) {
			choice[i] = int32(len(e.Whens))
		}
		branches = append(branches, undecided)
		results = append(results[:len(results):len(results)], e.Else)
	}
	vals := make([]arrow.Array, len(results))
	defer ReleaseAll(vals)
	for k, r := range results {
		a, err := evalWhere(r, rec, mem, branches[k])
		if err != nil {
			return nil, err
		}
		vals[k] = a
	}
	return gather(e.Type, n, choice, vals, mem)
}

// whole tells whether every row of n takes the branch of result r, whose
// rows are taken, and r's column is then the CASE's as it is: the Nexmark
// event table's dateTime over the events of one kind, with no gather (the
// CASE was a sixth of the time of a query over the bid view).
func (e *Case) whole(r Expr, taken []byte, n int) (Expr, bool) {
	return r, n > 0 && r != nil && arrow.TypeEqual(r.DataType(), e.Type) && bitutil.CountSetBits(taken, 0, n) == n
}

// GatherNested is gather of ROW, ARRAY and MAP values: nestedfn.Choose,
// set by that package (expr cannot import it).
var GatherNested func(dt arrow.DataType, n int, choice []int32, vals []arrow.Array, mem memory.Allocator) (arrow.Array, error)

// gather builds the column whose row i is row i of vals[choice[i]], NULL
// where choice[i] < 0.
func gather(dt arrow.DataType, n int, choice []int32, vals []arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	if id := dt.ID(); (id == arrow.STRUCT || id == arrow.LIST || id == arrow.MAP) && GatherNested != nil {
		return GatherNested(dt, n, choice, vals, mem)
	}
	maps := make([][]byte, len(vals))
	offs := make([]int, len(vals))
	for k, a := range vals {
		maps[k], offs[k] = nullBitmap(a)
	}
	validity, valid := NewBits(mem, n)
	for i, k := range choice {
		if k >= 0 && validAt(maps[k], offs[k], i) {
			valid[i>>3] |= 1 << (i & 7)
		}
	}
	nulls := n - bitutil.CountSetBits(valid, 0, n)
	var vb *memory.Buffer
	switch dt.ID() {
	case arrow.STRING:
		strs := make([]*array.String, len(vals))
		total := 0
		for k, a := range vals {
			strs[k] = a.(*array.String)
			total += len(strs[k].ValueBytes())
		}
		ob, offsets := NewValues[int32](mem, n+1)
		db, data := NewValues[byte](mem, total)
		p := 0
		for i, k := range choice {
			offsets[i] = int32(p)
			if k >= 0 {
				p += copy(data[p:], strs[k].Value(i))
			}
		}
		offsets[n] = int32(p)
		return NewArray(dt, n, validity, nulls, ob, db), nil
	case arrow.BOOL:
		var out []byte
		vb, out = NewBits(mem, n)
		bools := make([]*array.Boolean, len(vals))
		for k, a := range vals {
			bools[k] = a.(*array.Boolean)
		}
		for i, k := range choice {
			if k >= 0 && bools[k].Value(i) {
				out[i>>3] |= 1 << (i & 7)
			}
		}
	default:
		fw, ok := dt.(arrow.FixedWidthDataType)
		if !ok {
			validity.Release()
			return nil, fmt.Errorf("CASE over %s is not supported", dt)
		}
		switch fw.BitWidth() {
		case 8:
			vb = gatherFixed[uint8](n, choice, vals, mem)
		case 16:
			vb = gatherFixed[uint16](n, choice, vals, mem)
		case 32:
			vb = gatherFixed[uint32](n, choice, vals, mem)
		case 64:
			vb = gatherFixed[uint64](n, choice, vals, mem)
		case 128:
			vb = gatherFixed[[16]byte](n, choice, vals, mem)
		default:
			validity.Release()
			return nil, fmt.Errorf("CASE over %s is not supported", dt)
		}
	}
	return NewArray(dt, n, validity, nulls, vb), nil
}

func gatherFixed[T any](n int, choice []int32, vals []arrow.Array, mem memory.Allocator) *memory.Buffer {
	src := make([][]T, len(vals))
	for k, a := range vals {
		src[k] = valuesOf[T](a)
	}
	buf, out := NewValues[T](mem, n)
	var zero T
	for i, k := range choice {
		if k < 0 {
			out[i] = zero
			continue
		}
		out[i] = src[k][i]
	}
	return buf
}
