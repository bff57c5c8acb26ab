package textsource

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/format"
)

func TestBadRowsFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: tsType}, {Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	csvPath := write("a.csv", "2024-01-01 00:00:00,1\nnope,2\r\n2024-01-01 00:00:01,x\n2024-01-01 00:00:02,3\n")
	jsonPath := write("b.json", "{\"ts\": \"2024-01-01 00:00:00\", \"n\": 1}\n{\"n\": 2}\r\n\n{\"ts\": \"2024-01-01 00:00:02\"")
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("from an earlier run\n"), 0o644))

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		src  Source
		want string
	}{
		{Source{Path: csvPath, Format: "csv", Decoding: format.CSVDecoding{Options: format.CSVOptions{IgnoreParseErrors: true}}}, "nope,2\n2024-01-01 00:00:01,x\n"},
		{Source{Path: jsonPath, Format: "json", Decoding: format.JSONDecoding{Options: format.JSONOptions{IgnoreParseErrors: true}}}, "{\"n\": 2}\n{\"ts\": \"2024-01-01 00:00:02\"\n"},
	} {
		var seen int
		c.src.Schema, c.src.BadRowsPath, c.src.BatchSize = schema, bad, 1
		if d, ok := c.src.Decoding.(format.CSVDecoding); ok {
			d.Options.OnBadRow = func(*format.ParseError, []byte) { seen++ } // the caller's hook still runs
			c.src.Decoding = d
		}
		r, err := c.src.Open(mem, nil)
		require.NoError(t, err)
		rows := 0
		for {
			b, err := r.Next()
			if err != nil {
				require.Equal(t, "EOF", err.Error())
				break
			}
			if b.Record != nil {
				rows += int(b.Record.NumRows())
				b.Record.Release()
			}
		}
		require.EqualValues(t, 2, r.Stats().Skipped)
		require.NoError(t, r.Close())
		got, err := os.ReadFile(bad)
		require.NoError(t, err)
		require.Equal(t, c.want, string(got), c.src.Format)
		if c.src.Format == "csv" {
			require.Equal(t, 2, seen)
		}
	}

	// no bad rows: the file is still created, empty, for this run
	src := Source{Path: jsonPath, Format: "json", Decoding: format.JSONDecoding{Options: format.JSONOptions{IgnoreParseErrors: true}}, SourceSpec: exec.SourceSpec{Schema: schema, BadRowsPath: bad}}
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	got, err := os.ReadFile(bad)
	require.NoError(t, err)
	require.Empty(t, got)

	src.BadRowsPath = filepath.Join(dir, "missing", "bad.txt")
	_, err = src.Open(mem, nil)
	require.ErrorIs(t, err, exec.ErrSource)
	require.ErrorContains(t, err, "bad rows file: open ")
}
