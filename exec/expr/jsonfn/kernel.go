package jsonfn

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// What JSON_VALUE, JSON_QUERY and JSON_EXISTS share: the document and
// path arguments, and the path compiled once when it is a constant.

// Behavior is what an ON EMPTY or ON ERROR clause says.
type Behavior byte

// The behaviours: JSON_VALUE's NULL, ERROR and DEFAULT; JSON_QUERY's
// EMPTY ARRAY and EMPTY OBJECT; JSON_EXISTS's TRUE, FALSE and UNKNOWN.
const (
	BehaviorNull Behavior = iota
	BehaviorError
	BehaviorDefault
	BehaviorEmptyArray
	BehaviorEmptyObject
	BehaviorTrue
	BehaviorFalse
	BehaviorUnknown
)

// pathArgs are a call's document and path.
type pathArgs struct {
	Doc, PathArg expr.Expr
	// path is PathArg compiled, when it is a constant.
	path *Path
}

func newPathArgs(doc, path expr.Expr) (pathArgs, error) {
	a := pathArgs{Doc: doc, PathArg: path}
	if l, ok := path.(*expr.Literal); ok && !l.Null {
		p, err := CompilePath(l.Str)
		if err != nil {
			return a, err
		}
		a.path = p
	}
	return a, nil
}

// rows evaluates the arguments over rec and calls row for each row whose
// document and path are not NULL; the others stay NULL in valid.
type rowsFunc func(i int, doc string, p *Path)

func (a *pathArgs) each(rec arrow.RecordBatch, mem memory.Allocator, valid []byte, row rowsFunc) error {
	rows, err := a.rows(rec, mem, valid)
	if err != nil {
		return err
	}
	defer rows.release()
	for i := range int(rec.NumRows()) {
		if bitutil.BitIsNotSet(valid, i) {
			continue
		}
		p, err := rows.path(i)
		if err != nil {
			return err
		}
		row(i, rows.docs.At(i), p)
	}
	return nil
}

// pathRows are a batch's evaluated documents and paths, for a loop over
// its rows without a call through a closure per row. JSON_VALUE's loop is
// written out: with its results written in place, its type read once and
// skipWS and keyIs settled by one compare, BenchmarkValue gained 9-43%
// rows per CPU-second (BIGINT) and 5% (STRING), in two sets of three runs
// under load (docs/performance.md).
type pathRows struct {
	docs, paths expr.StringArg
	arrays      [2]arrow.Array
	p           *Path // the constant path, or the last one compiled
	constant    bool
	last        string
}

// rows evaluates the arguments over rec; rows whose document or path is
// NULL are cleared in valid.
func (a *pathArgs) rows(rec arrow.RecordBatch, mem memory.Allocator, valid []byte) (pathRows, error) {
	r := pathRows{p: a.path, constant: a.path != nil}
	var err error
	if r.docs, r.arrays[0], err = expr.EvalStringArg(a.Doc, rec, mem); err != nil {
		return r, err
	}
	if r.arrays[0] != nil {
		expr.AndValidityInto(valid, r.arrays[0])
	}
	if !r.constant {
		if r.paths, r.arrays[1], err = expr.EvalStringArg(a.PathArg, rec, mem); err != nil {
			r.release()
			return r, err
		}
		if r.arrays[1] != nil {
			expr.AndValidityInto(valid, r.arrays[1])
		}
	}
	return r, nil
}

func (r *pathRows) release() {
	for _, a := range r.arrays {
		if a != nil {
			a.Release()
		}
	}
}

// path is row i's path, compiled again only when it changes from the
// row before.
func (r *pathRows) path(i int) (*Path, error) {
	if r.constant {
		return r.p, nil
	}
	if s := r.paths.At(i); r.p == nil || s != r.last {
		p, err := CompilePath(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", expr.ErrEval, err)
		}
		r.p, r.last = p, s
	}
	return r.p, nil
}

// columnRows reads the rows of a STRING column straight from its offsets
// and data, without the calls of expr.StringArg.At.
type columnRows struct {
	text string
	offs []int32
	base int32
	ok   bool // the argument is a STRING column
}

func newColumnRows(a arrow.Array) columnRows {
	col, ok := a.(*array.String)
	if !ok {
		return columnRows{}
	}
	offs, data := col.ValueOffsets(), col.ValueBytes()
	return columnRows{text: unsafe.String(unsafe.SliceData(data), len(data)), offs: offs, base: offs[0], ok: true}
}

func (c *columnRows) at(i int) string { return c.text[c.offs[i]-c.base : c.offs[i+1]-c.base] }

func allValid(n int) []byte {
	valid := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.SetBitsTo(valid, 0, int64(n), true)
	return valid
}

// readers are reused across batches: a reader's buffers grow once.
var readers = sync.Pool{New: func() any { return &reader{} }}

func evalError(fn, msg string) error { return fmt.Errorf("%w: %s: %s", expr.ErrEval, fn, msg) }

// Exists is JSON_EXISTS(doc, path [{TRUE|FALSE|UNKNOWN|ERROR} ON ERROR]).
type Exists struct {
	pathArgs
	OnError Behavior
}

// NewExists builds JSON_EXISTS; its error is a path wsql cannot run.
func NewExists(doc, path expr.Expr, onError Behavior) (*Exists, error) {
	a, err := newPathArgs(doc, path)
	return &Exists{pathArgs: a, OnError: onError}, err
}

func (e *Exists) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *Exists) String() string           { return fmt.Sprintf("JSON_EXISTS(%s, %s)", e.Doc, e.PathArg) }
func (e *Exists) Children() []expr.Expr    { return []expr.Expr{e.Doc, e.PathArg} }
func (e *Exists) CanFail() bool            { return e.OnError == BehaviorError }

func (e *Exists) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	valid := allValid(n)
	vb, out := expr.NewBits(mem, n)
	r := readers.Get().(*reader)
	defer readers.Put(r)
	var failure error
	err := e.each(rec, mem, valid, func(i int, doc string, p *Path) {
		res := false
		switch r.read(p, doc) {
		case outValue, outList:
			res = true
		case outError:
			switch e.OnError {
			case BehaviorTrue:
				res = true
			case BehaviorUnknown:
				bitutil.ClearBit(valid, i)
			case BehaviorError:
				if failure == nil {
					failure = evalError("JSON_EXISTS", r.err)
				}
			}
		}
		if res {
			bitutil.SetBit(out, i)
		}
	})
	if err == nil {
		err = failure
	}
	if err != nil {
		vb.Release()
		return nil, err
	}
	return expr.NewArray(arrow.FixedWidthTypes.Boolean, n, expr.NullsOf(mem, valid, n), n-bitutil.CountSetBits(valid, 0, n), vb), nil
}

// IsJSON is x IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT]. NULL is not JSON.
type IsJSON struct {
	X    expr.Expr
	Type string // VALUE, SCALAR, ARRAY or OBJECT
	Not  bool
}

func (e *IsJSON) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *IsJSON) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *IsJSON) String() string {
	not := ""
	if e.Not {
		not = "NOT "
	}
	return fmt.Sprintf("%s IS %sJSON %s", e.X, not, e.Type)
}

func (e *IsJSON) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	valid := allValid(n)
	s, a, err := expr.EvalStringArg(e.X, rec, mem)
	if err != nil {
		return nil, err
	}
	if a != nil {
		defer a.Release()
		expr.AndValidityInto(valid, a)
	}
	vb, out := expr.NewBits(mem, n)
	for i := range n {
		is := false
		if bitutil.BitIsSet(valid, i) {
			kind, ok := validDoc(s.At(i))
			switch e.Type {
			case "SCALAR":
				ok = ok && kind != kindObject && kind != kindArray
			case "ARRAY":
				ok = ok && kind == kindArray
			case "OBJECT":
				ok = ok && kind == kindObject
			}
			is = ok
		}
		if is != e.Not {
			bitutil.SetBit(out, i)
		}
	}
	return expr.NewArray(arrow.FixedWidthTypes.Boolean, n, nil, 0, vb), nil
}
