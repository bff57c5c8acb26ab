package textsource

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/format"
)

// writeFiles creates the named files with the given contents under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
}

func TestListSplitsSkipsHiddenFilesAndDirectories(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"b.csv": "", "a.csv": "", ".a.csv.crc": "", "_SUCCESS": "", "c": ""})
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	splits, err := ListSplits(dir)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv"), filepath.Join(dir, "c")}, splits)

	splits, err = ListSplits(filepath.Join(dir, "b.csv"))
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "b.csv")}, splits, "a file is a directory of one split")

	empty := filepath.Join(dir, "sub")
	splits, err = ListSplits(empty)
	require.NoError(t, err)
	require.NotNil(t, splits)
	require.Empty(t, splits)

	_, err = ListSplits(filepath.Join(dir, "missing"))
	require.ErrorIs(t, err, fs.ErrNotExist)
}

// step is what one Next call returned, as text: "split:rows" or "split:end".
func readSteps(t *testing.T, r exec.BatchReader) []string {
	t.Helper()
	var steps []string
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return steps
		}
		require.NoError(t, err)
		if b.End {
			require.Nil(t, b.Record)
			steps = append(steps, string(rune('0'+b.Split))+":end")
			continue
		}
		var keys []string
		for i := 0; i < int(b.Record.NumRows()); i++ {
			keys = append(keys, b.Record.Column(1).ValueStr(i))
		}
		b.Record.Release()
		steps = append(steps, string(rune('0'+b.Split))+":"+strings.Join(keys, ","))
	}
}

func tsKeySchema() *arrow.Schema { return csvSchema("ts", tsType, "k", arrow.BinaryTypes.String) }

func TestSplitReaderIsRoundRobin(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"1.csv": "2024-01-01 00:00:00,a1\n2024-01-01 00:00:01,a2\n2024-01-01 00:00:02,a3\n",
		"2.csv": "2024-01-01 00:05:00,b1\n",
		"3.csv": "2024-01-01 00:09:00,c1\n2024-01-01 00:09:01,c2\n",
	})
	src := &Source{Path: dir, Format: "csv", Decoding: format.CSVDecoding{}, SourceSpec: exec.SourceSpec{Schema: tsKeySchema(), BatchSize: 1}}
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	require.Equal(t, 3, r.NumSplits())
	require.Equal(t, []string{
		"0:a1", "1:b1", "2:c1",
		"0:a2", "1:end", "2:c2",
		"0:a3", "2:end",
		"0:end",
	}, readSteps(t, r))
	require.Equal(t, exec.SourceStats{Rows: 6}, r.Stats(), "stats sum over splits")
	require.NoError(t, r.Close())
	require.NoError(t, r.Close(), "Close is idempotent")

	src.BatchSize = 2
	r, err = src.Open(mem, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"0:a1,a2", "1:b1", "2:c1,c2", "0:a3", "1:end", "2:end", "0:end"}, readSteps(t, r))
	require.NoError(t, r.Close())
}

func TestSplitReaderEmptyDirectory(t *testing.T) {
	src := &Source{Path: t.TempDir(), Format: "csv", Decoding: format.CSVDecoding{}, Splits: []string{}, SourceSpec: exec.SourceSpec{Schema: tsKeySchema()}}
	require.Equal(t, 0, src.NumSplits())
	r, err := src.Open(memory.NewGoAllocator(), nil)
	require.NoError(t, err)
	defer r.Close()
	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)
}

func TestSplitReaderBadRowNamesItsFile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.csv": "2024-01-01 00:00:00,a1\n2024-01-01 00:00:01,a2\n",
		"b.csv": "2024-01-01 00:05:00,b1\nnot a time,b2\n",
	})
	splits, err := ListSplits(dir)
	require.NoError(t, err)
	src := &Source{Path: dir, Splits: splits, Format: "csv", Decoding: format.CSVDecoding{}, SourceSpec: exec.SourceSpec{Schema: tsKeySchema(), BatchSize: 1}}
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	defer r.Close()
	var nextErr error
	for nextErr == nil {
		var b exec.SplitBatch
		b, nextErr = r.Next()
		if b.Record != nil {
			b.Record.Release()
		}
	}
	require.ErrorIs(t, nextErr, format.ErrBadRow)
	require.Contains(t, nextErr.Error(), filepath.Join(dir, "b.csv")+":2:1")

	src.Decoding = format.CSVDecoding{Options: format.CSVOptions{IgnoreParseErrors: true}}
	r2, err := src.Open(mem, nil)
	require.NoError(t, err)
	defer r2.Close()
	require.Equal(t, []string{"0:a1", "1:b1", "0:a2", "1:end", "0:end"}, readSteps(t, r2))
	require.Equal(t, exec.SourceStats{Rows: 3, Skipped: 1}, r2.Stats())
}

func TestOpenReportsAMissingSplit(t *testing.T) {
	dir := t.TempDir()
	src := &Source{Path: dir, Splits: []string{filepath.Join(dir, "gone.csv")}, Format: "csv", Decoding: format.CSVDecoding{}, SourceSpec: exec.SourceSpec{Schema: tsKeySchema()}}
	_, err := src.Open(memory.NewGoAllocator(), nil)
	require.ErrorIs(t, err, exec.ErrSource)
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.Contains(t, err.Error(), "gone.csv")
}
