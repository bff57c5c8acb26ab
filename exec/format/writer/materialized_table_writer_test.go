package writer

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/windowop"
)

var changesSchema = arrow.NewSchema([]arrow.Field{windowop.RowKindField(),
	{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "cnt", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)

// changes is a batch of an update stream: "+I bob 1" per row, usr "-" for NULL.
func changes(mem memory.Allocator, rows ...string) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, changesSchema)
	defer b.Release()
	for _, r := range rows {
		f := strings.Fields(r)
		b.Field(0).(*array.StringBuilder).Append(f[0])
		if f[1] == "-" {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(f[1])
		}
		var n int64
		for _, c := range f[2] {
			n = n*10 + int64(c-'0')
		}
		b.Field(2).(*array.Int64Builder).Append(n)
	}
	return b.NewRecordBatch()
}

func write(t *testing.T, w ResultWriter, b arrow.RecordBatch) {
	t.Helper()
	defer b.Release()
	require.NoError(t, w.WriteBatch(b))
}

func writeAll(t *testing.T, w ResultWriter, batches ...arrow.RecordBatch) {
	t.Helper()
	for _, b := range batches {
		require.NoError(t, w.WriteBatch(b))
		b.Release()
	}
	require.NoError(t, w.Close())
}

func TestChangelogWriterLayout(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	writeAll(t, NewChangelogWriter(&out, changesSchema, time.UTC),
		changes(mem, "+I bob 1", "+I alice 1"), changes(mem, "-U bob 1", "+U bob 12"), changes(mem, "-D - 3"))
	require.Equal(t, ""+
		" op    usr     cnt\n"+
		" +I    bob       1\n"+
		" +I    alice     1\n"+
		" -U    bob       1\n"+
		" +U    bob      12\n"+
		" -D    NULL      3\n", out.String())

	out.Reset()
	require.NoError(t, NewChangelogWriter(&out, changesSchema, time.UTC).Close())
	require.Equal(t, " op    usr    cnt\n", out.String())
}

// Not on a terminal, the table is printed once, at the end: the
// materialised rows, updated ones last, as Flink's table mode shows them.
func TestMaterializedTableWriterPrintsTheFinalTable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	w := NewMaterializedTableWriter(&out, changesSchema, time.UTC, Screen{})
	write(t, w, changes(mem, "+I bob 1", "+I alice 1", "+I greg 1"))
	require.Empty(t, out.String(), "nothing before the end")
	writeAll(t, w, changes(mem, "-U bob 1", "+U bob 2", "+I - 1"), changes(mem, "-D greg 1", "-D nobody 1"))
	require.Equal(t, ""+
		"+-------+------+\n"+
		"| usr   |  cnt |\n"+
		"+-------+------+\n"+
		"| alice |    1 |\n"+
		"| bob   |    2 |\n"+
		"| NULL  |    1 |\n"+
		"+-------+------+\n"+
		"3 rows\n", out.String())
}

// An append-only result materialises into all its rows.
func TestMaterializedTableWriterAppendOnly(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	schema := testSchema("usr", arrow.BinaryTypes.String)
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"bob", "bob"}, nil)
	rec := b.NewRecordBatch()
	b.Release()
	writeAll(t, NewMaterializedTableWriter(&out, schema, time.UTC, Screen{}), rec)
	require.Equal(t, "+------+\n| usr  |\n+------+\n| bob  |\n| bob  |\n+------+\n2 rows\n", out.String())
}

// On a terminal the table is drawn over itself as it changes: its last
// rows as the height allows, lines cut at the width; then in full.
func TestMaterializedTableWriterDrawsLive(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	w := NewMaterializedTableWriter(&out, changesSchema, time.UTC, Screen{
		Size:  func() (int, int, bool) { return 14, 8, true },
		Every: time.Nanosecond,
	})
	write(t, w, changes(mem, "+I bob 1"))
	first := "" +
		"+------+------\n" +
		"| usr  |  cnt \n" +
		"+------+------\n" +
		"| bob  |    1 \n" +
		"+------+------\n" +
		"1 row\n"
	require.Equal(t, first, out.String())
	out.Reset()
	time.Sleep(time.Millisecond)
	write(t, w, changes(mem, "+I alice 1", "+I carol 1", "-U bob 1", "+U bob 2"))
	require.Equal(t, "\r\x1b[6A\x1b[J"+
		"+-------+-----\n"+
		"| usr   |  cnt\n"+
		"+-------+-----\n"+
		"| carol |    1\n"+
		"| bob   |    2\n"+
		"+-------+-----\n"+
		"3 rows, the la\n", out.String())
	out.Reset()
	require.NoError(t, w.Close())
	require.Equal(t, "\r\x1b[7A\x1b[J"+
		"+-------+------+\n"+
		"| usr   |  cnt |\n"+
		"+-------+------+\n"+
		"| alice |    1 |\n"+
		"| carol |    1 |\n"+
		"| bob   |    2 |\n"+
		"+-------+------+\n"+
		"3 rows\n", out.String())
}

// Changes that come sooner than Every after a drawing are drawn by a
// timer, through Screen.Draw, without waiting for the next batch.
func TestMaterializedTableWriterRedrawsByTimer(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var out syncBuffer
	drawn := make(chan struct{}, 1)
	w := NewMaterializedTableWriter(&out, changesSchema, time.UTC, Screen{
		Size:  func() (int, int, bool) { return 80, 24, true },
		Draw:  func(draw func()) { draw(); drawn <- struct{}{} },
		Every: 50 * time.Millisecond,
	})
	write(t, w, changes(mem, "+I bob 1"))
	write(t, w, changes(mem, "-U bob 1", "+U bob 2"))
	require.NotContains(t, out.String(), "|    2 |", "not drawn sooner than Every")
	select {
	case <-drawn:
	case <-time.After(10 * time.Second):
		t.Fatal("no redraw")
	}
	require.Contains(t, out.String(), "\r\x1b[6A\x1b[J")
	require.Contains(t, out.String(), "| bob  |    2 |")
	require.NoError(t, w.Close())
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
