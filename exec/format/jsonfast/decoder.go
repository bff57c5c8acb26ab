package jsonfast

import (
	"encoding/binary"
	"math/bits"

	"github.com/wsql/wsql/exec/format/jsontext"
)

// Kind says how a Node's value is read.
type Kind uint8

const (
	// Other is a leaf read by the Decoder's General function.
	Other Kind = iota
	// String is a STRING leaf: Offs and Data.
	String
	// Int is an integer leaf of Width bytes in Fixed, from Min to Max.
	Int
	// Float64 is a DOUBLE leaf in Fixed.
	Float64
	// Bool is a BOOLEAN leaf in Bools.
	Bool
	// Timestamp is a TIMESTAMP leaf (no time zone) in Fixed, with Digits
	// fraction digits.
	Timestamp
	// Struct is a ROW: Fields, and Valid.
	Struct
	// List is an ARRAY: Elem, Offs and Valid.
	List
	// Map is a MAP or MULTISET with STRING keys: Key (a String leaf),
	// Value, Offs and Valid.
	Map
)

// maxDepth bounds the nesting the fast path reads; a deeper line goes to
// the general path, whose own limit is higher.
const maxDepth = 500

// Node is a column, or a part of a nested one, as pointers to the
// decoder's reusable buffers, which the fast path appends to. A leaf's
// NULL is appended by the buffers it has: a repeated offset (Offs), false
// (Bools) or Width zero bytes (Fixed).
type Node struct {
	Kind    Kind
	NotNull bool
	ID      int // a leaf's number for General

	Valid *[]bool
	Fixed *[]byte
	Width int
	Bools *[]bool
	Offs  *[]int32
	Data  *[]byte

	Min, Max int64 // Int
	Digits   int   // Timestamp: 0, 3, 6 or 9

	Fields []Field // Struct
	Elem   *Node   // List
	Key    *Node   // Map
	Value  *Node   // Map

	obj  object    // Struct: keys, the expected order, fields seen
	date dateCache // Timestamp
}

// Field is a ROW's field (or a top-level column) by name.
type Field struct {
	Name string
	Node *Node
}

// object is a ROW's key state: the field of each key, the keys in the
// order the last object had them, and which fields the current object
// gave (seen equals epoch).
type object struct {
	index map[string]int
	order []expect
	seen  []uint64
	epoch uint64
	all   uint64 // the bits of every field, the first 64
}

// expect is the key the last object had at a position, as the bytes
// `"key":`; word and mask hold them for a one-word compare when they fit
// in eight bytes; up to 16 bytes, word and tail are their first and last
// eight bytes for a two-word compare.
type expect struct {
	word, mask uint64
	tail       uint64
	n          int   // len(quoted)
	field      int   // -1: not a field
	node       *Node // the field's, nil for none
	quoted     []byte
}

// maxOrder bounds the positions remembered per object.
const maxOrder = 64

// Decoder reads lines into Row's fields.
type Decoder struct {
	row           *Node
	failOnMissing bool
	// general appends the non-null value at b[i] to leaf id the general
	// way and returns the index after it, or -1 when it cannot. It takes
	// the values and types the fast path does not specialise (strings
	// into numbers, exponents, decimals, dates, zoned timestamps, ...).
	general func(id int, b []byte, i, depth int) int
	scratch []byte
}

// NewDecoder reads into the columns of fields. failOnMissing makes a
// missing top-level field a bad line.
func NewDecoder(fields []Field, failOnMissing bool, general func(id int, b []byte, i, depth int) int) *Decoder {
	row := &Node{Kind: Struct, Fields: fields}
	prepare(row)
	return &Decoder{row: row, failOnMissing: failOnMissing, general: general}
}

func prepare(n *Node) {
	switch n.Kind {
	case Struct:
		n.obj.index = make(map[string]int, len(n.Fields))
		n.obj.seen = make([]uint64, len(n.Fields))
		n.obj.all = ^uint64(0) >> (64 - min(len(n.Fields), 64))
		for k, f := range n.Fields {
			n.obj.index[f.Name] = k
			prepare(f.Node)
		}
	case List:
		prepare(n.Elem)
	case Map:
		prepare(n.Value)
	}
}

// Line reads one line, without its line end. blank: the line holds only
// blanks. ok false: the line is not clean, or not one the fast path
// reads; what it appended is to be rolled back.
func (d *Decoder) Line(b []byte) (blank, ok bool) {
	i := 0
	if len(b) > 0 && b[0] <= ' ' {
		i = ws(b, 0)
	}
	if i == len(b) {
		return true, false
	}
	if b[i] != '{' {
		return false, false
	}
	if i = d.object(d.row, b, i, 0); i < 0 {
		return false, false
	}
	if i < len(b) && b[i] <= ' ' {
		i = ws(b, i)
	}
	return false, i == len(b)
}

func ws(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// object reads the object at b[i] (a '{') into the ROW n (the row when
// n.Valid is nil) and returns the index after it, or -1.
func (d *Decoder) object(n *Node, b []byte, i, depth int) int {
	o := &n.obj
	o.epoch++
	if i++; i < len(b) && b[i] <= ' ' {
		i = ws(b, i)
	}
	// The fields given: the first 64 in a bit set held in a register,
	// any further ones in o.seen.
	var seen uint64
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		for pos := 0; ; pos++ {
			// The key expected here, matched by its bytes in one word
			// compare when it fits.
			var k int
			var f *Node
			if pos < len(o.order) {
				if e := &o.order[pos]; e.mask != 0 {
					if len(b)-i >= 8 && binary.LittleEndian.Uint64(b[i:])&e.mask == e.word {
						k, f, i = e.field, e.node, i+e.n
						goto matched
					}
				} else if e.n <= 16 {
					if len(b)-i >= e.n && binary.LittleEndian.Uint64(b[i:]) == e.word && binary.LittleEndian.Uint64(b[i+e.n-8:]) == e.tail {
						k, f, i = e.field, e.node, i+e.n
						goto matched
					}
				} else if len(b)-i >= e.n && string(b[i:i+e.n]) == string(e.quoted) {
					k, f, i = e.field, e.node, i+e.n
					goto matched
				}
			}
			if k, f, i = d.key(n, b, i, pos); i < 0 {
				return -1
			}
		matched:
			// One compare settles both the end of the line and a blank.
			if i >= len(b) || b[i] <= ' ' {
				if i = ws(b, i); i >= len(b) {
					return -1
				}
			}
			// k is -1 for a key that is not a field: one compare settles
			// the commonest case.
			if uint(k) < 64 {
				if seen&(1<<k) != 0 { // a duplicate key: the general path takes the last
					return -1
				}
				seen |= 1 << k
			} else if f == nil {
				i = skip(b, i, depth+1)
				goto next
			} else {
				if o.seen[k] == o.epoch {
					return -1
				}
				o.seen[k] = o.epoch
			}
			// The commonest leaves are read without value's dispatch: a
			// call less per value (Go's calls save every live register).
			switch j := other; f.Kind {
			case String:
				// A short plain string, the commonest value, is read here
				// without a call: Go's calls save every live register.
				if b[i] == '"' && len(b)-i >= 9 {
					w := binary.LittleEndian.Uint64(b[i+1:])
					if m := jsontext.Special(w); m != 0 {
						// The string ends in this word: it is copied as
						// the word (past its end, within the capacity).
						if e := i + 1 + bits.TrailingZeros64(m)>>3; b[e] == '"' {
							if data := *f.Data; cap(data)-len(data) >= 8 {
								l := len(data)
								data = data[:l+8]
								binary.LittleEndian.PutUint64(data[l:], w)
								data = data[:l+e-i-1]
								*f.Data = data
								*f.Offs = append(*f.Offs, int32(len(data)))
								*f.Valid = append(*f.Valid, true)
								i = e + 1
								goto read
							}
						}
					}
				}
				if j = f.str(b, i); j != other {
					i = j
					goto next
				}
			case Int:
				// A non-negative integer of a few digits followed by a
				// separator, the commonest, is read here without a call.
				if u := uint64(b[i] - '0'); u <= 9 && f.Width >= 4 {
					j = i + 1
					for j < len(b) && b[j]-'0' <= 9 {
						u = u*10 + uint64(b[j]-'0')
						j++
					}
					if j-i <= 18 && (b[i] != '0' || j-i == 1) && j < len(b) && (b[j] == ',' || b[j] == '}') && int64(u) <= f.Max && int64(u) >= f.Min {
						if f.Width == 8 {
							*f.Fixed = binary.NativeEndian.AppendUint64(*f.Fixed, u)
						} else {
							*f.Fixed = binary.NativeEndian.AppendUint32(*f.Fixed, uint32(u))
						}
						*f.Valid = append(*f.Valid, true)
						i = j
						goto read
					}
				}
				if j = f.integer(b, i); j != other {
					i = j
					goto read // integer never returns -1
				}
			case Timestamp:
				if j = f.timestamp(b, i); j != other {
					i = j
					goto next
				}
			case Struct:
				if b[i] == '{' && depth+1 < maxDepth {
					i = d.object(f, b, i, depth+1)
					goto next
				}
			case List:
				if b[i] == '[' && depth+1 < maxDepth {
					i = d.list(f, b, i, depth+1)
					goto next
				}
			}
			i = d.value(f, b, i, depth+1)
		next:
			if i < 0 {
				return -1
			}
		read:
			if i >= len(b) || b[i] <= ' ' {
				if i = ws(b, i); i >= len(b) {
					return -1
				}
			}
			if c := b[i]; c == ',' {
				if i++; i < len(b) && b[i] <= ' ' {
					i = ws(b, i)
				}
				continue
			} else if c == '}' {
				i++
				break
			}
			return -1
		}
	}
	if seen != o.all || len(n.Fields) > 64 {
		for k, f := range n.Fields {
			if k < 64 && seen&(1<<k) == 0 || k >= 64 && o.seen[k] != o.epoch {
				if f.Node.NotNull || n.Valid == nil && d.failOnMissing {
					return -1
				}
				f.Node.appendNull()
			}
		}
	}
	if n.Valid != nil {
		*n.Valid = append(*n.Valid, true)
	}
	return i
}

// key reads the key at b[i], its blanks and ':' the general way, and
// remembers it as the one expected at pos. It returns the key's field of
// the ROW n and its node (-1 and nil if none) and the index after the
// ':', or -1.
func (d *Decoder) key(n *Node, b []byte, i, pos int) (int, *Node, int) {
	o := &n.obj
	if i >= len(b) || b[i] != '"' {
		return -1, nil, -1
	}
	end, esc := jsontext.String(b, i+1)
	if end < 0 {
		return -1, nil, -1
	}
	key := b[i+1 : end]
	if esc {
		d.scratch = jsontext.Unescape(d.scratch[:0], key)
		key = d.scratch
	}
	j := ws(b, end+1)
	if j >= len(b) || b[j] != ':' {
		return -1, nil, -1
	}
	k, found := o.index[string(key)]
	var f *Node
	if found {
		f = n.Fields[k].Node
	} else {
		k = -1
	}
	// Only an unescaped key is its own bytes: an escaped one is matched
	// the general way every time.
	if !esc && pos <= len(o.order) && pos < maxOrder {
		if pos == len(o.order) {
			o.order = append(o.order, expect{})
		}
		e := &o.order[pos]
		e.quoted = append(append(e.quoted[:0], b[i:end+1]...), ':')
		e.field, e.node, e.n, e.word, e.mask = k, f, len(e.quoted), 0, 0
		if len(e.quoted) <= 8 {
			var w [8]byte
			copy(w[:], e.quoted)
			e.word = binary.LittleEndian.Uint64(w[:])
			e.mask = ^uint64(0) >> (64 - 8*len(e.quoted))
		} else if len(e.quoted) <= 16 {
			e.word = binary.LittleEndian.Uint64(e.quoted)
			e.tail = binary.LittleEndian.Uint64(e.quoted[len(e.quoted)-8:])
		}
	}
	return k, f, j + 1
}

// other is what a leaf's reader returns for a value not of the form it
// reads: NULL, or one for the general path.
const other = -2

// value reads the value at b[i] (i < len(b)) into n and returns the
// index after it, or -1. It only dispatches: each kind's reader is a
// small function of its own, which keeps the common path free of the
// spills of one large one.
func (d *Decoder) value(n *Node, b []byte, i, depth int) int {
	j := other
	switch n.Kind {
	case String:
		j = n.str(b, i)
	case Int:
		j = n.integer(b, i)
	case Float64:
		j = n.float(b, i)
	case Bool:
		j = n.boolean(b, i)
	case Timestamp:
		j = n.timestamp(b, i)
	case Struct:
		if b[i] == '{' && depth < maxDepth {
			return d.object(n, b, i, depth)
		}
	case List:
		if b[i] == '[' && depth < maxDepth {
			return d.list(n, b, i, depth)
		}
	case Map:
		if b[i] == '{' && depth < maxDepth {
			return d.mapObject(n, b, i, depth)
		}
	}
	if j != other {
		return j
	}
	if b[i] == 'n' {
		if n.NotNull || len(b)-i < 4 || string(b[i:i+4]) != "null" {
			return -1
		}
		n.appendNull()
		return i + 4
	}
	if n.Kind >= Struct { // not an object or array: the general path names the error
		return -1
	}
	return d.general(n.ID, b, i, depth)
}

// str reads a string into a STRING leaf.
func (n *Node) str(b []byte, i int) int {
	if b[i] != '"' {
		return other
	}
	// A string ending in its first word is found here, without a call.
	end, esc := -1, false
	if len(b)-i >= 9 {
		if m := jsontext.Special(binary.LittleEndian.Uint64(b[i+1:])); m != 0 {
			if e := i + 1 + bits.TrailingZeros64(m)>>3; b[e] == '"' {
				end = e
			}
		}
	}
	if end < 0 {
		if end, esc = jsontext.String(b, i+1); end < 0 {
			return -1
		}
	}
	data := *n.Data
	switch l := len(data); {
	case esc:
		data = jsontext.Unescape(data, b[i+1:end])
	case end-i <= 17 && cap(data)-l >= 16 && len(b)-i >= 17:
		// A short string is copied as two words (past its end, within
		// the capacity), without a call to memmove.
		data = data[:l+16]
		binary.LittleEndian.PutUint64(data[l:], binary.LittleEndian.Uint64(b[i+1:]))
		binary.LittleEndian.PutUint64(data[l+8:], binary.LittleEndian.Uint64(b[i+9:]))
		data = data[:l+end-i-1]
	default:
		data = append(data, b[i+1:end]...)
	}
	*n.Data = data
	*n.Offs = append(*n.Offs, int32(len(data)))
	*n.Valid = append(*n.Valid, true)
	return end + 1
}

// integer reads an integer into an Int leaf: at most 18 digits, without
// a fraction or an exponent (those go to the general path). The digits
// are read here rather than by a call.
func (n *Node) integer(b []byte, i int) int {
	j := i
	if b[j] == '-' {
		j++
	}
	start := j
	var u uint64
	for j < len(b) && b[j]-'0' <= 9 {
		u = u*10 + uint64(b[j]-'0')
		j++
	}
	if d := j - start; d == 0 || d > 18 || d > 1 && b[start] == '0' || j < len(b) && (b[j] == '.' || b[j]|0x20 == 'e') {
		return other
	}
	v := int64(u)
	if start > i {
		v = -v
	}
	if v < n.Min || v > n.Max {
		return other
	}
	switch n.Width {
	case 8:
		*n.Fixed = binary.NativeEndian.AppendUint64(*n.Fixed, uint64(v))
	case 4:
		*n.Fixed = binary.NativeEndian.AppendUint32(*n.Fixed, uint32(v))
	case 2:
		*n.Fixed = binary.NativeEndian.AppendUint16(*n.Fixed, uint16(v))
	default:
		*n.Fixed = append(*n.Fixed, byte(v))
	}
	*n.Valid = append(*n.Valid, true)
	return j
}

// float reads a number into a Float64 leaf.
func (n *Node) float(b []byte, i int) int {
	j, v, ok := decimal(b, i)
	if !ok {
		return other
	}
	*n.Fixed = binary.NativeEndian.AppendUint64(*n.Fixed, v)
	*n.Valid = append(*n.Valid, true)
	return j
}

// boolean reads true or false into a Bool leaf.
func (n *Node) boolean(b []byte, i int) int {
	switch {
	case b[i] == 't' && len(b)-i >= 4 && string(b[i:i+4]) == "true":
		*n.Bools = append(*n.Bools, true)
		i += 4
	case b[i] == 'f' && len(b)-i >= 5 && string(b[i:i+5]) == "false":
		*n.Bools = append(*n.Bools, false)
		i += 5
	default:
		return other
	}
	*n.Valid = append(*n.Valid, true)
	return i
}

// list reads the array at b[i] into the ARRAY n.
func (d *Decoder) list(n *Node, b []byte, i, depth int) int {
	offs := *n.Offs
	count := offs[len(offs)-1]
	i = ws(b, i+1)
	if i < len(b) && b[i] == ']' {
		i++
	} else {
		for {
			if i >= len(b) {
				return -1
			}
			if e := n.Elem; e.Kind == Struct && b[i] == '{' && depth+1 < maxDepth {
				i = d.object(e, b, i, depth+1)
			} else {
				i = d.value(e, b, i, depth+1)
			}
			if i < 0 {
				return -1
			}
			count++
			if i < len(b) && b[i] <= ' ' {
				i = ws(b, i)
			}
			if i < len(b) && b[i] == ',' {
				i = ws(b, i+1)
				continue
			}
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			return -1
		}
	}
	*n.Offs = append(*n.Offs, count)
	*n.Valid = append(*n.Valid, true)
	return i
}

// mapObject reads the object at b[i] into the MAP n: each key into the
// keys, its value into the values.
func (d *Decoder) mapObject(n *Node, b []byte, i, depth int) int {
	offs := *n.Offs
	count := offs[len(offs)-1]
	key := n.Key
	i = ws(b, i+1)
	if i < len(b) && b[i] == '}' {
		i++
	} else {
		for {
			if i >= len(b) || b[i] != '"' {
				return -1
			}
			end, esc := jsontext.String(b, i+1)
			if end < 0 {
				return -1
			}
			if esc {
				*key.Data = jsontext.Unescape(*key.Data, b[i+1:end])
			} else {
				*key.Data = append(*key.Data, b[i+1:end]...)
			}
			*key.Offs = append(*key.Offs, int32(len(*key.Data)))
			*key.Valid = append(*key.Valid, true)
			i = ws(b, end+1)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			if i = ws(b, i+1); i >= len(b) {
				return -1
			}
			if i = d.value(n.Value, b, i, depth+1); i < 0 {
				return -1
			}
			count++
			i = ws(b, i)
			if i < len(b) && b[i] == ',' {
				i = ws(b, i+1)
				continue
			}
			if i < len(b) && b[i] == '}' {
				i++
				break
			}
			return -1
		}
	}
	*n.Offs = append(*n.Offs, count)
	*n.Valid = append(*n.Valid, true)
	return i
}

// appendNull appends a NULL to n (and to a ROW's fields).
func (n *Node) appendNull() {
	*n.Valid = append(*n.Valid, false)
	switch {
	case n.Kind == Struct:
		for _, f := range n.Fields {
			f.Node.appendNull()
		}
	case n.Offs != nil:
		offs := *n.Offs
		*n.Offs = append(offs, offs[len(offs)-1])
	case n.Bools != nil:
		*n.Bools = append(*n.Bools, false)
	default:
		for range n.Width {
			*n.Fixed = append(*n.Fixed, 0)
		}
	}
}
