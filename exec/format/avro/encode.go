package avro

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/message"
)

// Encoder writes rows as Avro records of the schema Schema derives from
// their columns (message.Encoder), after a fixed header (the
// Confluent wire format's magic byte and schema id, or none).
type Encoder struct {
	cols   []enc
	header []byte
	err    error
}

var _ message.Encoder = (*Encoder)(nil)

// enc writes the value of row i of the array it was bound to.
type enc interface {
	bind(a arrow.Array)
	put(b []byte, i int) []byte
}

// NewEncoder writes rows of fields (checked by Schema first) after header.
func NewEncoder(fields []arrow.Field, header []byte) (*Encoder, error) {
	e := &Encoder{header: header}
	for _, f := range fields {
		c, err := e.compile(f, f.Name)
		if err != nil {
			return nil, err
		}
		e.cols = append(e.cols, c)
	}
	return e, nil
}

// Encode writes row i of rec as out[i] (message.Encoder).
func (e *Encoder) Encode(rec arrow.RecordBatch, out [][]byte) error {
	if int(rec.NumCols()) != len(e.cols) {
		return fmt.Errorf("avro: a batch of %d columns for a schema of %d", rec.NumCols(), len(e.cols))
	}
	for c, x := range e.cols {
		x.bind(rec.Column(c))
	}
	var buf []byte
	for i := range int(rec.NumRows()) {
		start := len(buf)
		buf = append(buf, e.header...)
		for _, x := range e.cols {
			buf = x.put(buf, i)
		}
		if e.err != nil {
			err := e.err
			e.err = nil
			return err
		}
		out[i] = buf[start:len(buf):len(buf)]
	}
	return nil
}

func (e *Encoder) compile(f arrow.Field, col string) (enc, error) {
	c, err := e.compileType(f.Type, col)
	if err != nil {
		return nil, err
	}
	if f.Nullable {
		return &nullableEnc{e: c}, nil
	}
	return &requiredEnc{e: c, col: col, err: &e.err}, nil
}

func (e *Encoder) compileType(dt arrow.DataType, col string) (enc, error) {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return &boolEnc{}, nil
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type, *arrow.Date32Type:
		return &intEnc{}, nil
	case *arrow.Float32Type:
		return &float32Enc{}, nil
	case *arrow.Float64Type:
		return &float64Enc{}, nil
	case *arrow.StringType, *arrow.BinaryType:
		return &bytesEnc{}, nil
	case *arrow.Decimal128Type:
		return &decimalEnc{}, nil
	case *arrow.Time32Type:
		mul := int64(1)
		if t.Unit == arrow.Second {
			mul = 1000
		}
		return &intEnc{mul: mul}, nil
	case *arrow.TimestampType:
		mul := int64(1)
		if t.Unit == arrow.Second {
			mul = 1000
		}
		return &intEnc{mul: mul}, nil
	case *arrow.StructType:
		s := &structEnc{}
		for _, f := range t.Fields() {
			c, err := e.compile(f, col+"."+f.Name)
			if err != nil {
				return nil, err
			}
			s.fields = append(s.fields, c)
		}
		return s, nil
	case *arrow.ListType:
		item, err := e.compile(t.ElemField(), col+"[]")
		if err != nil {
			return nil, err
		}
		return &listEnc{item: item}, nil
	case *arrow.MapType:
		value, err := e.compile(t.ItemField(), col+"[]")
		if err != nil {
			return nil, err
		}
		return &mapEnc{value: value}, nil
	}
	return nil, &UnsupportedError{Column: col, Type: format.SQLTypeName(dt), Why: "Flink's avro format has no mapping for it"}
}

func putLong(b []byte, v int64) []byte {
	return binary.AppendUvarint(b, uint64(v<<1)^uint64(v>>63))
}

// nullableEnc is the union ["null", T]: branch 0 for NULL, 1 and the value.
type nullableEnc struct {
	e enc
	a arrow.Array
}

func (x *nullableEnc) bind(a arrow.Array) { x.a = a; x.e.bind(a) }

func (x *nullableEnc) put(b []byte, i int) []byte {
	if x.a.IsNull(i) {
		return append(b, 0)
	}
	return x.e.put(append(b, 2), i)
}

// requiredEnc is a NOT NULL value: a NULL in it is an error.
type requiredEnc struct {
	e   enc
	a   arrow.Array
	col string
	err *error
}

func (x *requiredEnc) bind(a arrow.Array) { x.a = a; x.e.bind(a) }

func (x *requiredEnc) put(b []byte, i int) []byte {
	if x.a.NullN() > 0 && x.a.IsNull(i) {
		if *x.err == nil {
			*x.err = fmt.Errorf("avro: NULL in %s, which is NOT NULL", x.col)
		}
		return b
	}
	return x.e.put(b, i)
}

type boolEnc struct{ a *array.Boolean }

func (x *boolEnc) bind(a arrow.Array) { x.a = a.(*array.Boolean) }
func (x *boolEnc) put(b []byte, i int) []byte {
	if x.a.Value(i) {
		return append(b, 1)
	}
	return append(b, 0)
}

// intEnc writes an integer, date, time or timestamp column as an int or
// long, times mul (seconds as milliseconds).
type intEnc struct {
	mul   int64
	value func(i int) int64
}

func (x *intEnc) bind(a arrow.Array) {
	switch a := a.(type) {
	case *array.Int8:
		x.value = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int16:
		x.value = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int32:
		x.value = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int64:
		x.value = a.Value
	case *array.Date32:
		x.value = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Time32:
		x.value = func(i int) int64 { return int64(a.Value(i)) }
	case *array.Timestamp:
		x.value = func(i int) int64 { return int64(a.Value(i)) }
	}
}

func (x *intEnc) put(b []byte, i int) []byte {
	v := x.value(i)
	if x.mul > 1 {
		v *= x.mul
	}
	return putLong(b, v)
}

type float32Enc struct{ a *array.Float32 }

func (x *float32Enc) bind(a arrow.Array) { x.a = a.(*array.Float32) }
func (x *float32Enc) put(b []byte, i int) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(x.a.Value(i)))
}

type float64Enc struct{ a *array.Float64 }

func (x *float64Enc) bind(a arrow.Array) { x.a = a.(*array.Float64) }
func (x *float64Enc) put(b []byte, i int) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(x.a.Value(i)))
}

// bytesEnc writes a STRING or BYTES column: its length, then its bytes.
type bytesEnc struct {
	str *array.String
	bin *array.Binary
}

func (x *bytesEnc) bind(a arrow.Array) {
	x.str, _ = a.(*array.String)
	x.bin, _ = a.(*array.Binary)
}

func (x *bytesEnc) put(b []byte, i int) []byte {
	if x.str != nil {
		v := x.str.Value(i)
		return append(putLong(b, int64(len(v))), v...)
	}
	v := x.bin.Value(i)
	return append(putLong(b, int64(len(v))), v...)
}

// decimalEnc writes the unscaled value in the fewest big-endian two's
// complement bytes, as Java's BigInteger.toByteArray.
type decimalEnc struct{ a *array.Decimal128 }

func (x *decimalEnc) bind(a arrow.Array) { x.a = a.(*array.Decimal128) }
func (x *decimalEnc) put(b []byte, i int) []byte {
	return appendDecimal(b, x.a.Value(i))
}

func appendDecimal(b []byte, n decimal128.Num) []byte {
	var be [16]byte
	binary.BigEndian.PutUint64(be[:8], uint64(n.HighBits()))
	binary.BigEndian.PutUint64(be[8:], n.LowBits())
	k := 0
	for k < 15 && (be[k] == 0 && be[k+1]&0x80 == 0 || be[k] == 0xff && be[k+1]&0x80 != 0) {
		k++
	}
	return append(putLong(b, int64(16-k)), be[k:]...)
}

type structEnc struct {
	fields []enc
}

func (x *structEnc) bind(a arrow.Array) {
	s := a.(*array.Struct)
	for k, f := range x.fields {
		f.bind(s.Field(k))
	}
}

func (x *structEnc) put(b []byte, i int) []byte {
	for _, f := range x.fields {
		b = f.put(b, i)
	}
	return b
}

// listEnc writes an array as one block of its items.
type listEnc struct {
	item enc
	a    *array.List
}

func (x *listEnc) bind(a arrow.Array) {
	x.a = a.(*array.List)
	x.item.bind(x.a.ListValues())
}

func (x *listEnc) put(b []byte, i int) []byte {
	start, end := x.a.ValueOffsets(i)
	if end > start {
		b = putLong(b, end-start)
		for k := start; k < end; k++ {
			b = x.item.put(b, int(k))
		}
	}
	return append(b, 0)
}

// mapEnc writes a map (or a MULTISET's counts) as one block of entries.
type mapEnc struct {
	value enc
	keys  *array.String
	a     *array.Map
}

func (x *mapEnc) bind(a arrow.Array) {
	x.a = a.(*array.Map)
	x.keys = x.a.Keys().(*array.String)
	x.value.bind(x.a.Items())
}

func (x *mapEnc) put(b []byte, i int) []byte {
	start, end := x.a.ValueOffsets(i)
	if end > start {
		b = putLong(b, end-start)
		for k := start; k < end; k++ {
			key := x.keys.Value(int(k))
			b = append(putLong(b, int64(len(key))), key...)
			b = x.value.put(b, int(k))
		}
	}
	return append(b, 0)
}
