package format

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// An ARRAY or ROW field is read as Flink's csv format reads it: elements
// separated by the array element delimiter, each read as a field of its
// type (empty or the null literal NULL); a bad element or a ROW with
// another number of fields is a bad row naming the element.
func TestCSVDecoderReadsArrayAndRowElements(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "r", Type: arrow.StructOf(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
		{Name: "a", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	var bad []string
	opts := CSVOptions{ArrayElementDelimiter: "|", NullLiteral: "N", IgnoreParseErrors: true,
		OnBadRow: func(err *ParseError, _ []byte) { bad = append(bad, err.Error()) }}
	in := "1|x,1|2\nN,\"\"\n|N,N|3| 4 \n1,1\n2|y,1|z\n"
	d := NewCSVDecoder(strings.NewReader(in), "in.csv", schema, opts, mem, 16)
	rec, err := d.Next()
	require.NoError(t, err)
	defer rec.Release()
	require.Equal(t, `{[1 (null) (null)] ["x" (null) (null)]}`, rec.Column(0).String()) // the fields
	require.Equal(t, []bool{true, false, true}, []bool{rec.Column(0).IsValid(0), rec.Column(0).IsValid(1), rec.Column(0).IsValid(2)})
	require.Equal(t, `[[1 2] [] [(null) 3 4]]`, rec.Column(1).String())
	require.Len(t, bad, 2)
	require.Contains(t, bad[0], `expected 2 fields separated by "|", found 1`)
	require.Contains(t, bad[1], "element 2: invalid integer")
}

// FuzzCSVElements feeds ARRAY and ROW fields to the csv decoder: it never
// panics or leaks, and a row reads alike whatever the batch size.
func FuzzCSVElements(f *testing.F) {
	for _, s := range []string{"1;x,1;2,a;b\n", ",\"\",\n;,;,;\n", "1,x,y\n1;2;3,,\n", "N;N,N,N\n\"1;\"\"q\"\"\",\"3;4\",\"a\nb\"\n"} {
		f.Add(s)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "r", Type: arrow.StructOf(arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
		{Name: "a", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "t", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	}, nil)
	f.Fuzz(func(t *testing.T, in string) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		var rows []int64
		for _, size := range []int{1, 4096} {
			opts := CSVOptions{IgnoreParseErrors: true, NullLiteral: "N"}
			d := NewCSVDecoder(strings.NewReader(in), "in.csv", schema, opts, mem, size)
			n := int64(0)
			for {
				rec, err := d.Next()
				if err != nil {
					break
				}
				for _, c := range rec.Columns() {
					if v, ok := c.(interface{ ValidateFull() error }); ok {
						require.NoError(t, v.ValidateFull())
					}
				}
				n += rec.NumRows()
				rec.Release()
			}
			rows = append(rows, n)
		}
		require.Equal(t, rows[1], rows[0], "rows read with batches of 1 and of 4096")
	})
}
