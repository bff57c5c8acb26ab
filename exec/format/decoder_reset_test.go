package format

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A decoder reset to another input reads it as a new decoder does: the
// same rows, the same bad rows at the same lines, whatever it read before
// (a bad row, a header, a longer input).
func TestResetDecoderReadsAsNew(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	inputs := map[string][]string{
		// (the two last: a quote far into one input, a shorter next input
		// without any, where the column-at-a-time path must not stop)
		"csv":  {"1,x\nbad,y\n3,z\n", "4,\"q\nr\"\n5,w\n", "", "6,v", "7,a\n8,b\n9,\"c\"\n", "10,d\n11,e\n"},
		"json": {`{"a":1,"b":"x"}` + "\n" + `{"a":"bad"}` + "\n" + `{"a":3}` + "\n", `{"b":"only"}` + "\n" + `{"a":5,"b":"w"}`, "", `{"a":6}`},
	}
	for f, ins := range inputs {
		var badFresh, badReset []int
		decoder := func(r io.Reader, bad *[]int) Decoder {
			onBad := func(e *ParseError, _ []byte) { *bad = append(*bad, e.Line) }
			if f == "csv" {
				return NewCSVDecoder(r, "in", schema, CSVOptions{IgnoreParseErrors: true, OnBadRow: onBad}, mem, 2)
			}
			return NewJSONDecoder(r, "in", schema, JSONOptions{IgnoreParseErrors: true, OnBadRow: onBad}, mem, 2)
		}
		read := func(d Decoder) string {
			var b strings.Builder
			for {
				rec, err := d.Next()
				if errors.Is(err, io.EOF) {
					return b.String()
				}
				require.NoError(t, err)
				for i := range int(rec.NumRows()) {
					b.WriteString(rec.Column(0).ValueStr(i) + "|" + rec.Column(1).ValueStr(i) + ";")
				}
				rec.Release()
			}
		}
		reused := decoder(strings.NewReader(ins[0]), &badReset)
		for i, in := range ins {
			if i > 0 {
				reused.(Resetter).Reset(strings.NewReader(in))
			}
			want := read(decoder(strings.NewReader(in), &badFresh))
			require.Equal(t, want, read(reused), "%s input %d", f, i)
			require.Equal(t, badFresh, badReset, "%s input %d", f, i)
		}
	}
}
