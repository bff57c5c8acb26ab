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

// errReadPastScript is what scriptedReader returns once its pieces are
// out: the decoder asked for input the writer has not written yet.
var errReadPastScript = errors.New("read past the pieces written so far")

// scriptedReader hands out its pieces one Read each, each a short read
// (the stream has nothing more ready), as a pipe does when its writer
// writes them one at a time with pauses between. A Read after the last
// piece is an error instead of a wait, so a decoder that waits for more
// input while it holds a complete record fails instead of hanging. With
// eof set, the input ends there instead.
type scriptedReader struct {
	pieces []string
	eof    bool
}

func (r *scriptedReader) Read(p []byte) (int, error) {
	if len(r.pieces) == 0 && r.eof {
		return 0, io.EOF
	}
	if len(r.pieces) == 0 {
		return 0, errReadPastScript
	}
	n := copy(p, r.pieces[0])
	if r.pieces[0] = r.pieces[0][n:]; r.pieces[0] == "" {
		r.pieces = r.pieces[1:]
	}
	return n, nil
}

// A record whose last bytes come in a read shorter than its first ones
// (a writer that writes a line in two pieces, then nothing for a while)
// is handed out as soon as its end is read, without waiting for as many
// bytes again: on a slow stream that wait holds the row back, and with it
// the results of its window, until the next row comes.
func TestDecodersHandOutARecordCompletedByAShortRead(t *testing.T) {
	schema := csvSchema("ts", tsType, "k", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Float64)
	for _, tc := range []struct {
		name   string
		pieces []string
		open   func(r *scriptedReader, mem memory.Allocator) interface {
			Next() (arrow.RecordBatch, error)
		}
	}{
		{"csv", []string{"2024-03-01 09:00:00.000,k1,2", ".5\n"}, func(r *scriptedReader, mem memory.Allocator) interface {
			Next() (arrow.RecordBatch, error)
		} {
			return NewCSVDecoder(r, "stdin", schema, CSVOptions{}, mem, 4096)
		}},
		// the end in a piece of its own, after rows handed out
		{"csv after rows", []string{"2024-03-01 09:00:00.000,k0,1\n2024-03-01 09:00:00.000,k1,2.", "5\r\n"}, func(r *scriptedReader, mem memory.Allocator) interface {
			Next() (arrow.RecordBatch, error)
		} {
			return NewCSVDecoder(r, "stdin", schema, CSVOptions{}, mem, 4096)
		}},
		// a quoted line end is not the record's: the decoder reads on
		{"csv quoted", []string{"2024-03-01 09:00:00.000,\"k", "\n", "1\",2.5\n"}, func(r *scriptedReader, mem memory.Allocator) interface {
			Next() (arrow.RecordBatch, error)
		} {
			return NewCSVDecoder(r, "stdin", schema, CSVOptions{}, mem, 4096)
		}},
		{"json", []string{`{"ts":"2024-03-01 09:00:00.000","k":"k1","v":2`, ".5}\n"}, func(r *scriptedReader, mem memory.Allocator) interface {
			Next() (arrow.RecordBatch, error)
		} {
			return NewJSONDecoder(r, "stdin", schema, JSONOptions{}, mem, 4096)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			d := tc.open(&scriptedReader{pieces: tc.pieces}, mem)
			var rows [][]string
			for len(rows) == 0 || rows[len(rows)-1][2] != "2.5" {
				rec, err := d.Next()
				require.NoError(t, err, "rows so far: %v", rows)
				rows = append(rows, recordRows(rec)...)
				rec.Release()
			}
			last := rows[len(rows)-1]
			require.Equal(t, "2024-03-01 09:00:00.000", last[0])
			require.Equal(t, "k1", strings.ReplaceAll(last[1], "\n", ""))
		})
	}
}

// Parsing a record again after each early read stays linear: a record of
// 100,000 bytes coming in pieces of 10, each with a line end that does not
// end it (a quoted field's), is parsed over a few times its length, not
// once per piece (which would be 10,000 parses of 50,000 bytes on average).
func TestReadBufferParsesALongRecordInSmallPiecesLinearly(t *testing.T) {
	const pieces, size = 10_000, 10
	r := &scriptedReader{eof: true}
	for range pieces {
		r.pieces = append(r.pieces, "aaaaaaaaa\n")
	}
	b := readBuffer{r: r, source: "stdin", limit: recordLimit(0)}
	parsed := 0
	require.NoError(t, b.read(0, false))
	for !b.eof {
		parsed += b.end // the caller parses the pending record, finds no end
		require.NoError(t, b.read(b.end-b.pos, false))
	}
	require.Less(t, parsed, 6*pieces*size)
}
