package nestedfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Key is a nested value's canonical encoding as BYTES (key_encoding.go),
// NULL where the value is: grouping by it groups equal values, a MAP's
// entries in any order, and partitions them alike. KeyValue reads it back.
type Key struct {
	X expr.Expr
}

func (k *Key) DataType() arrow.DataType { return arrow.BinaryTypes.Binary }

// Eval encodes a batch in one pass into one builder: the row's bytes are
// built in a buffer reused from row to row.
func (k *Key) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := k.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	w, err := newKeyWriter(a)
	if err != nil {
		return nil, err
	}
	bb := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer bb.Release()
	bb.Reserve(a.Len())
	var buf []byte
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			bb.AppendNull()
			continue
		}
		buf = w(buf[:0], i)
		bb.Append(buf)
	}
	return bb.NewArray(), nil
}

func (k *Key) String() string { return fmt.Sprintf("KEY(%s)", k.X) }

// Children lets conditional forms see the sub-expression.
func (k *Key) Children() []expr.Expr { return []expr.Expr{k.X} }

// KeyValue decodes Key's bytes back into the nested value of Type.
type KeyValue struct {
	X    expr.Expr
	Type arrow.DataType
}

func (k *KeyValue) DataType() arrow.DataType { return k.Type }

func (k *KeyValue) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := k.X.Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	keys, ok := a.(*array.Binary)
	if !ok {
		return nil, fmt.Errorf("internal: a nested key is %s, not BYTES", a.DataType())
	}
	b := array.NewBuilder(mem, k.Type)
	defer b.Release()
	b.Reserve(keys.Len())
	for i := 0; i < keys.Len(); i++ {
		if keys.IsNull(i) {
			b.AppendNull()
			continue
		}
		if _, err := decodeKey(keys.Value(i), b); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

func (k *KeyValue) String() string { return fmt.Sprintf("VALUE(%s)", k.X) }

// Children lets conditional forms see the sub-expression.
func (k *KeyValue) Children() []expr.Expr { return []expr.Expr{k.X} }
