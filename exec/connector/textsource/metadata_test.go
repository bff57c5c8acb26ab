package textsource

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/format"
)

// TestMetadataOfFollowedFiles: a followed read ('source.monitor-interval')
// fills METADATA columns too, for a file that joins the directory later,
// with the decoded columns around them in the source's order.
func TestMetadataOfFollowedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.csv": "1,x\n"})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := csvSchema("v", arrow.PrimitiveTypes.Int32, "name", arrow.BinaryTypes.String, "k", arrow.BinaryTypes.String, "size", arrow.PrimitiveTypes.Int64)
	src := &Source{Path: dir, Format: "csv", Decoding: format.CSVDecoding{}, MonitorInterval: 5 * time.Millisecond,
		SourceSpec: exec.SourceSpec{Schema: schema},
		Metadata:   []MetadataColumn{{Index: 1, Key: MetaName}, {Index: 3, Key: MetaSize}}}
	r, err := src.Open(mem, nil)
	require.NoError(t, err)
	defer r.Close()
	next := func() string {
		t.Helper()
		for range 1000 {
			b, err := r.Next()
			require.NoError(t, err)
			if b.Record == nil {
				continue
			}
			defer b.Record.Release()
			require.True(t, b.Record.Schema().Equal(schema))
			s := ""
			for i := range int(b.Record.NumRows()) {
				s += b.Record.Column(0).(*array.Int32).ValueStr(i) + "," + b.Record.Column(1).(*array.String).Value(i) + "," +
					b.Record.Column(2).(*array.String).Value(i) + "," + b.Record.Column(3).(*array.Int64).ValueStr(i) + ";"
			}
			return s
		}
		t.Fatal("no batch")
		return ""
	}
	require.Equal(t, "1,a.csv,x,4;", next())
	writeFiles(t, dir, map[string]string{"b.csv": "2,y\n3,z\n"})
	require.Equal(t, "2,b.csv,y,8;3,b.csv,z,8;", next())
}
