package jsonfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Wrapper is JSON_QUERY's WITHOUT / WITH CONDITIONAL / WITH UNCONDITIONAL
// ARRAY WRAPPER.
type Wrapper byte

const (
	WithoutWrapper Wrapper = iota
	ConditionalWrapper
	UnconditionalWrapper
)

// Query is JSON_QUERY(doc, path [wrapper] [behaviour ON EMPTY]
// [behaviour ON ERROR]): the object or array at path as JSON text. A
// scalar is empty in lax mode and an error in strict mode unless a
// wrapper puts it in an array.
type Query struct {
	pathArgs
	Wrapper          Wrapper
	OnEmpty, OnError Behavior
}

// NewQuery builds JSON_QUERY; its error is a path wsql cannot run.
func NewQuery(doc, path expr.Expr) (*Query, error) {
	a, err := newPathArgs(doc, path)
	return &Query{pathArgs: a}, err
}

func (e *Query) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *Query) String() string           { return fmt.Sprintf("JSON_QUERY(%s, %s)", e.Doc, e.PathArg) }
func (e *Query) Children() []expr.Expr    { return []expr.Expr{e.Doc, e.PathArg} }
func (e *Query) CanFail() bool            { return e.OnEmpty == BehaviorError || e.OnError == BehaviorError }

func (e *Query) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	valid := allValid(n)
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	r := readers.Get().(*reader)
	defer readers.Put(r)
	var w writer
	var buf []byte
	var failure error
	fail := func(msg string) {
		if failure == nil {
			failure = evalError("JSON_QUERY", msg)
		}
		b.AppendNull()
	}
	next := 0
	err := e.each(rec, mem, valid, func(i int, doc string, p *Path) {
		for ; next < i; next++ {
			b.AppendNull()
		}
		next = i + 1
		var msg string
		switch r.read(p, doc) {
		case outError:
			msg = r.err
		case outEmpty:
			if !e.behave(b, e.OnEmpty) {
				fail("no value at path " + quote(p.text) + " (ERROR ON EMPTY)")
			}
			return
		case outValue:
			c := doc[r.value.start]
			container := c == '{' || c == '['
			switch {
			case e.Wrapper == UnconditionalWrapper || (e.Wrapper == ConditionalWrapper && c != '['):
				buf = append(w.value(append(buf[:0], '['), doc, r.value.start), ']')
			case container:
				buf = w.value(buf[:0], doc, r.value.start)
			case p.lax:
				if !e.behave(b, e.OnEmpty) {
					fail("no object or array at path " + quote(p.text) + " (ERROR ON EMPTY)")
				}
				return
			default:
				msg = "strict mode requires an object or array at path " + quote(p.text)
			}
			if msg == "" {
				b.BinaryBuilder.Append(buf)
				return
			}
		case outList:
			buf = append(buf[:0], '[')
			if e.Wrapper == UnconditionalWrapper {
				buf = append(buf, '[')
			}
			for k, s := range r.list {
				if k > 0 {
					buf = append(buf, ',')
				}
				buf = w.value(buf, doc, s.start)
			}
			if e.Wrapper == UnconditionalWrapper {
				buf = append(buf, ']')
			}
			b.BinaryBuilder.Append(append(buf, ']'))
			return
		}
		if !e.behave(b, e.OnError) {
			fail(msg)
		}
	})
	if err == nil {
		err = failure
	}
	if err != nil {
		return nil, err
	}
	for ; next < n; next++ {
		b.AppendNull()
	}
	return b.NewArray(), nil
}

// behave appends what an ON EMPTY or ON ERROR behaviour gives; false for
// ERROR.
func (e *Query) behave(b *array.StringBuilder, bh Behavior) bool {
	switch bh {
	case BehaviorEmptyArray:
		b.Append("[]")
	case BehaviorEmptyObject:
		b.Append("{}")
	case BehaviorError:
		return false
	default:
		b.AppendNull()
	}
	return true
}
