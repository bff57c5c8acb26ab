package textsource

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/format"
)

// A partitioned directory is listed below its partition directories,
// skipping hidden and '_' names at every level; each file's partition
// values come from its directory names, unescaped, parsed as the columns'
// types, the default name as NULL.
func TestPartitionValuesFromDirectories(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		"d=2024-01-02/s=a%2Fb%3Dc/part-0.csv",
		"d=__DEFAULT_PARTITION__/s=x/part-0.csv",
		"d=2024-01-02/s=a%2Fb%3Dc/_SUCCESS",
		"d=2024-01-02/s=a%2Fb%3Dc/.part-1.csv.inprogress",
		"_tmp/d=2024-01-03/s=y/part-0.csv",
		".hidden/part-0.csv",
	} {
		full := filepath.Join(root, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte("1\n"), 0o644))
	}
	splits, err := ListPartitionSplits(root)
	require.NoError(t, err)
	require.Equal(t, []string{
		filepath.Join(root, "d=2024-01-02", "s=a%2Fb%3Dc", "part-0.csv"),
		filepath.Join(root, "d=__DEFAULT_PARTITION__", "s=x", "part-0.csv"),
	}, splits)

	schema := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	src := &Source{Path: root, SourceSpec: exec.SourceSpec{Schema: schema}, Partitions: &Partitions{DefaultName: "__DEFAULT_PARTITION__"},
		Metadata: []MetadataColumn{{Index: 1, Key: MetaPartition, Partition: "d"}, {Index: 2, Key: MetaPartition, Partition: "s"}}}
	var got [][]string
	for _, p := range splits {
		vals, err := src.partitionValues(p)
		require.NoError(t, err)
		var row []string
		for _, v := range vals {
			if v.IsNull(0) {
				row = append(row, "NULL")
				continue
			}
			row = append(row, string(format.AppendValue(nil, v, 0, nil)))
		}
		got = append(got, row)
	}
	require.Equal(t, [][]string{{"2024-01-02", "a/b=c"}, {"NULL", "x"}}, got)

	bad := filepath.Join(root, "d=yesterday", "s=z", "part-0.csv")
	_, err = src.partitionValues(bad)
	require.ErrorContains(t, err, "partition d=yesterday")
}
