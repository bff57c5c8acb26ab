package format

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A UTF-8 BOM at the start of the input is skipped by every decoder, however
// the reader hands it out; anywhere else it is data.
func TestDecodersSkipALeadingBOM(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	schema := csvSchema("s", arrow.BinaryTypes.String, "n", arrow.PrimitiveTypes.Int64)
	readers := map[string]func(string) io.Reader{
		"whole":   func(s string) io.Reader { return strings.NewReader(s) },
		"onebyte": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
	}
	for name, reader := range readers {
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)

			csv := NewCSVDecoder(reader(bom+"a,1\n"+bom+"b,2\n"), "in.csv", schema, CSVOptions{}, mem, 0)
			rows, err := decodeAll(t, csv)
			require.NoError(t, err)
			require.Equal(t, [][]string{{"a", "1"}, {bom + "b", "2"}}, rows)
			require.EqualValues(t, len(bom+"a,1\n"+bom+"b,2\n"), csv.Position().Offset, "offsets count the BOM")

			header := NewCSVDecoder(reader(bom+"s,n\na,1\n"), "in.csv", schema, CSVOptions{IgnoreFirstLine: true}, mem, 0)
			rows, err = decodeAll(t, header)
			require.NoError(t, err)
			require.Equal(t, [][]string{{"a", "1"}}, rows)

			json := NewJSONDecoder(reader(bom+`{"s":"a","n":1}`+"\n"), "in.json", schema, JSONOptions{}, mem, 0)
			var got [][]string
			for {
				rec, err := json.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				got = append(got, recordRows(rec)...)
				rec.Release()
			}
			require.Equal(t, [][]string{{"a", "1"}}, got)

			for _, text := range []string{bom, ""} {
				rows, err = decodeAll(t, NewCSVDecoder(reader(text), "in.csv", schema, CSVOptions{}, mem, 0))
				require.NoError(t, err, "%q", text)
				require.Empty(t, rows)
			}
			for _, text := range []string{bom[:2], "\xef"} {
				_, err = decodeAll(t, NewCSVDecoder(reader(text+",1\n"), "in.csv", schema, CSVOptions{}, mem, 0))
				require.ErrorContains(t, err, "in.csv:1:1", "%q: not a BOM, so data (invalid UTF-8)", text)
			}

			par := NewParallelCSVDecoder(reader(bom+"a,1\nb,2\n"), "in.csv", schema, CSVOptions{}, mem, 0, 1, SplitPosition{})
			var parRows [][]string
			for {
				rec, err := par.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				parRows = append(parRows, recordRows(rec)...)
				rec.Release()
			}
			par.Close()
			require.Equal(t, [][]string{{"a", "1"}, {"b", "2"}}, parRows)
		})
	}
}
