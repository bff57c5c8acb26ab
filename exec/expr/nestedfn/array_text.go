package nestedfn

import (
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Join is ARRAY_JOIN(array, delimiter [, nullReplacement]): the STRING
// elements joined by the delimiter, a NULL element written as the
// replacement or, without one, left out. NULL when any argument is.
type Join struct {
	X, Delimiter, NullReplacement expr.Expr // NullReplacement may be nil
}

func (j *Join) DataType() arrow.DataType { return arrow.BinaryTypes.String }

func (j *Join) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := j.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := a.Len()
	delim, darr, err := expr.EvalStringArg(j.Delimiter, rec, mem)
	if err != nil {
		return nil, err
	}
	if darr != nil {
		defer darr.Release()
	}
	var repl expr.StringArg
	var rarr arrow.Array
	if j.NullReplacement != nil {
		if repl, rarr, err = expr.EvalStringArg(j.NullReplacement, rec, mem); err != nil {
			return nil, err
		}
		if rarr != nil {
			defer rarr.Release()
		}
	}
	l, ok := a.(*array.List)
	values, isStr := l.ListValues().(*array.String)
	if !ok || !isStr || untypedNull(darr) || untypedNull(rarr) {
		return array.MakeArrayOfNull(mem, j.DataType(), n), nil
	}
	out := array.NewStringBuilder(mem)
	defer out.Release()
	out.Reserve(n)
	var scratch []byte // one per batch, reused by every row
	for i := 0; i < n; i++ {
		if l.IsNull(i) || delim.IsNull(i) || (j.NullReplacement != nil && repl.IsNull(i)) {
			out.AppendNull()
			continue
		}
		d := delim.At(i)
		scratch = scratch[:0]
		first := true
		start, end := l.ValueOffsets(i)
		for e := int(start); e < int(end); e++ {
			var v string
			switch {
			case values.IsValid(e):
				v = values.Value(e)
			case j.NullReplacement != nil:
				v = repl.At(i)
			default:
				continue
			}
			if !first {
				scratch = append(scratch, d...)
			}
			first = false
			scratch = append(scratch, v...)
		}
		out.Append(unsafe.String(unsafe.SliceData(scratch), len(scratch)))
	}
	return out.NewArray(), nil
}

func untypedNull(a arrow.Array) bool { return a != nil && a.DataType().ID() == arrow.NULL }

func (j *Join) String() string { return "ARRAY_JOIN(" + joinExprs(j.Children()) + ")" }

// Children lets conditional forms see the sub-expressions.
func (j *Join) Children() []expr.Expr {
	if j.NullReplacement == nil {
		return []expr.Expr{j.X, j.Delimiter}
	}
	return []expr.Expr{j.X, j.Delimiter, j.NullReplacement}
}

// Split is SPLIT(string, delimiter): the pieces of the string between
// the delimiters as an ARRAY<STRING>, empty pieces kept (as Flink's
// splitByWholeSeparatorPreserveAllTokens); an empty delimiter splits
// every character, an empty string gives an empty array. NULL when
// either argument is.
type Split struct {
	X, Delimiter expr.Expr
}

// SplitType is SPLIT's result, ARRAY<STRING>.
var SplitType = arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true})

func (s *Split) DataType() arrow.DataType { return SplitType }

func (s *Split) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	str, sarr, err := expr.EvalStringArg(s.X, rec, mem)
	if err != nil {
		return nil, err
	}
	if sarr != nil {
		defer sarr.Release()
	}
	delim, darr, err := expr.EvalStringArg(s.Delimiter, rec, mem)
	if err != nil {
		return nil, err
	}
	if darr != nil {
		defer darr.Release()
	}
	n := int(rec.NumRows())
	if untypedNull(sarr) || untypedNull(darr) {
		return array.MakeArrayOfNull(mem, s.DataType(), n), nil
	}
	vb, valid := newBits(mem, n)
	nulls := 0
	offb, offs := expr.NewValues[int32](mem, n+1)
	pieces := array.NewStringBuilder(mem)
	defer pieces.Release()
	count := 0
	for i := 0; i < n; i++ {
		offs[i] = int32(count)
		if str.IsNull(i) || delim.IsNull(i) {
			nulls++
			continue
		}
		valid[i>>3] |= 1 << (i & 7)
		v, d := str.At(i), delim.At(i)
		switch {
		case v == "":
		case d == "":
			for len(v) > 0 {
				_, size := utf8.DecodeRuneInString(v)
				pieces.Append(v[:size])
				v = v[size:]
				count++
			}
		default:
			for {
				k := strings.Index(v, d)
				if k < 0 {
					pieces.Append(v)
					count++
					break
				}
				pieces.Append(v[:k])
				count++
				v = v[k+len(d):]
			}
		}
	}
	offs[n] = int32(count)
	if nulls == 0 {
		vb.Release()
		vb = nil
	}
	return newList(SplitType, n, vb, nulls, offb, pieces.NewArray()), nil
}

func (s *Split) String() string { return fmt.Sprintf("SPLIT(%s, %s)", s.X, s.Delimiter) }

// Children lets conditional forms see the sub-expressions.
func (s *Split) Children() []expr.Expr { return []expr.Expr{s.X, s.Delimiter} }
