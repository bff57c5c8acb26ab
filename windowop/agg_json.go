package windowop

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// jsonAggAcc is JSON_ARRAYAGG and JSON_OBJECTAGG. The planner writes each
// row's item as a one-element JSON_ARRAY or a one-member JSON_OBJECT (with
// the call's ON NULL behaviour: an absent item is [] or {}); the
// accumulator keeps them in arrival order as LISTAGG keeps its values,
// and the result is the items in one array, or the members in one object
// with the keys sorted as Flink writes them. A key that occurs twice is
// an error, as in Flink. The result is never NULL: [] or {} without items.
type jsonAggAcc struct {
	listAggAcc
	object  bool
	members []jsonMember // sort scratch
	keys    []byte
}

type jsonMember struct {
	key    [2]int // decoded key in keys
	member []byte // "k":v
}

func newJSONAggAcc(in arrow.DataType, object bool) (*jsonAggAcc, error) {
	if in.ID() != arrow.STRING {
		return nil, fmt.Errorf("JSON aggregates over %s are not supported", in)
	}
	return &jsonAggAcc{listAggAcc: listAggAcc{sep: []byte(","), limit: maxListAggBytes}, object: object}, nil
}

// result appends slot s's array or object to out.
func (a *jsonAggAcc) result(out []byte, s int32) []byte {
	l := a.ordered(s)
	if !a.object {
		out = append(out, '[')
		first := true
		for k := range l.items {
			v := l.value(k)
			if len(v) <= 2 {
				continue // absent: []
			}
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(out, v[1:len(v)-1]...)
		}
		return append(out, ']')
	}
	a.members, a.keys = a.members[:0], a.keys[:0]
	for k := range l.items {
		v := l.value(k)
		if len(v) <= 2 {
			continue // absent: {}
		}
		m := v[1 : len(v)-1]
		start := len(a.keys)
		a.keys = appendJSONKey(a.keys, m)
		a.members = append(a.members, jsonMember{key: [2]int{start, len(a.keys)}, member: m})
	}
	slices.SortStableFunc(a.members, func(x, y jsonMember) int {
		return bytes.Compare(a.keys[x.key[0]:x.key[1]], a.keys[y.key[0]:y.key[1]])
	})
	out = append(out, '{')
	for k, m := range a.members {
		if k > 0 {
			if key := a.keys[m.key[0]:m.key[1]]; bytes.Equal(key, a.keys[a.members[k-1].key[0]:a.members[k-1].key[1]]) && a.err == nil {
				a.err = fmt.Errorf("JSON_OBJECTAGG: the key %q occurs more than once in a group; Flink's keys must be unique", key)
			}
			out = append(out, ',')
		}
		out = append(out, m.member...)
	}
	return append(out, '}')
}

// appendJSONKey appends the key of a member "k":v decoded.
func appendJSONKey(dst, m []byte) []byte {
	for i := 1; i < len(m); i++ {
		c := m[i]
		switch {
		case c == '"':
			return dst
		case c != '\\' || i+1 >= len(m):
			dst = append(dst, c)
			continue
		}
		i++
		switch m[i] {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'u':
			var r rune
			for _, h := range m[i+1 : min(i+5, len(m))] {
				r = r<<4 | rune(hexValue(h))
			}
			i += 4
			dst = utf8.AppendRune(dst, r)
		default:
			dst = append(dst, m[i])
		}
	}
	return dst
}

func hexValue(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func (a *jsonAggAcc) appendResults(slots []int32, b array.Builder) {
	sb := b.(*array.StringBuilder)
	for _, s := range slots {
		if size := int64(sb.DataLen()) + int64(a.joinedLen(&a.lists[s])) + 2; size > int64(a.limit) {
			a.overLimit(int(size))
			sb.AppendNull() // never sent: the operator stops with the error
			continue
		}
		a.bx = a.result(a.bx[:0], s)
		sb.BinaryBuilder.Append(a.bx)
	}
}

func (a *jsonAggAcc) sameResult(x, y int32) bool {
	a.bx, a.by = a.result(a.bx[:0], x), a.result(a.by[:0], y)
	return bytes.Equal(a.bx, a.by)
}
