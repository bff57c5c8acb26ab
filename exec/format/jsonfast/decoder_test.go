package jsonfast

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// testColumns are the buffers of a BIGINT column a and a STRING column s.
type testColumns struct {
	aValid, sValid []bool
	aFixed         []byte
	sOffs          []int32
	sData          []byte
	general        []int // the leaves General was called for
}

func newTestDecoder(aNotNull bool) (*Decoder, *testColumns) {
	c := &testColumns{sOffs: []int32{0}}
	a := &Node{Kind: Int, ID: 0, NotNull: aNotNull, Valid: &c.aValid, Fixed: &c.aFixed, Width: 8, Min: -1 << 63, Max: 1<<63 - 1}
	s := &Node{Kind: String, ID: 1, Valid: &c.sValid, Offs: &c.sOffs, Data: &c.sData}
	general := func(id int, b []byte, i, depth int) int {
		c.general = append(c.general, id)
		return -1
	}
	return NewDecoder([]Field{{Name: "a", Node: a}, {Name: "s", Node: s}}, false, general), c
}

func (c *testColumns) ints() []int64 {
	var out []int64
	for k := 0; k < len(c.aFixed); k += 8 {
		out = append(out, int64(binary.NativeEndian.Uint64(c.aFixed[k:])))
	}
	return out
}

func (c *testColumns) strings() []string {
	var out []string
	for k := 1; k < len(c.sOffs); k++ {
		out = append(out, string(c.sData[c.sOffs[k-1]:c.sOffs[k]]))
	}
	return out
}

// The keys are expected in the order the last object had them; an object
// with another order, an escaped or spaced key, unknown fields or a
// missing field is read all the same, and its order is expected next.
func TestKeyOrderChanges(t *testing.T) {
	d, c := newTestDecoder(false)
	for _, line := range []string{
		`{"a":1,"s":"x"}`, `{"s":"y","a":2}`, `{"s":"z","a":3}`, `{"a":4,"s":"w"}`,
		`{"s":"v"}`, `{"x":[1,{"y":null}],"a":5,"s":"\u00e9\n"}`, ` { "a" : 6 , "\u0073" : "u" } `,
		`{"a":77777777,"s":"0123456789abcdef"}`, `{"a":-8,"s":"0123456789abcdefg"}`,
	} {
		blank, ok := d.Line([]byte(line))
		require.False(t, blank, line)
		require.True(t, ok, line)
	}
	require.Equal(t, []int64{1, 2, 3, 4, 0, 5, 6, 77777777, -8}, c.ints())
	require.Equal(t, []bool{true, true, true, true, false, true, true, true, true}, c.aValid)
	require.Equal(t, []string{"x", "y", "z", "w", "v", "é\n", "u", "0123456789abcdef", "0123456789abcdefg"}, c.strings())
	require.Empty(t, c.general)
	order := d.row.obj.order
	require.Equal(t, `"a":`, string(order[0].quoted))
	require.Equal(t, `"s":`, string(order[1].quoted))
}

// A line that is not clean is given up (ok false), whatever it appended
// left for the caller to roll back; values of other forms go to General.
func TestLineGivesUp(t *testing.T) {
	for _, line := range []string{
		`{"a":1,"a":2}`, `{"s":"x"}`, `{"a":1} x`, `{"a":1,}`, `{"a":01}`, `{"a":1`, `[1]`,
		"{\"a\":1,\"s\":\"\xff\"}", "{\"a\":1,\"s\":\"\x01\"}", `{"a":1,"s":"\q"}`, `{"a":null}`,
		`{"a":1,"x":[1,]}`, `{"a":1,"x":tru}`, `{"a":1 "s":"x"}`,
	} {
		d, _ := newTestDecoder(true)
		blank, ok := d.Line([]byte(line))
		require.False(t, blank, line)
		require.False(t, ok, line)
	}
	d, c := newTestDecoder(false)
	blank, _ := d.Line([]byte(" \t\r"))
	require.True(t, blank)
	_, ok := d.Line([]byte(`{"a":1.5e3,"s":"x"}`))
	require.False(t, ok)
	_, ok = d.Line([]byte(`{"a":"7"}`))
	require.False(t, ok)
	_, ok = d.Line([]byte(`{"s":12}`))
	require.False(t, ok)
	require.Equal(t, []int{0, 0, 1}, c.general, "an exponent, a string into a BIGINT, a number into a STRING")
}
