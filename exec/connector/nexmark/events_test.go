package nexmark

import (
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

func eventsSchema() (*arrow.Schema, []int) {
	var fields []arrow.Field
	var cols []int
	for i, c := range EventColumns() {
		fields = append(fields, arrow.Field{Name: c.Name, Type: c.Type, Nullable: true})
		cols = append(cols, i)
	}
	return arrow.NewSchema(fields, nil), cols
}

func newEvents(events, seed int64, proportions [3]int64) (*Source, *arrow.Schema) {
	schema, cols := eventsSchema()
	return &Source{Columns: cols, EventsNum: events, Rate: 1000, TimeStart: 1_700_000_000_000, Seed: seed, Proportions: proportions}, schema
}

// eventRows drains the event stream: per kind, the fields of the ROW of
// each event of that kind, as Drain writes a row; and every event's type.
// It checks the ROWs of the other kinds are NULL.
func eventRows(t *testing.T, g *Source, schema *arrow.Schema, size int) (byKind [3][]string, types []int32) {
	t.Helper()
	generatortest.EachBatch(t, g, schema, size, func(rec arrow.RecordBatch) {
		et := rec.Column(0).(*array.Int32)
		for i := range et.Len() {
			kind := int(et.Value(i))
			types = append(types, et.Value(i))
			for k := range 3 {
				row := rec.Column(1 + k).(*array.Struct)
				if k != kind {
					require.True(t, row.IsNull(i), "the %s of a %s event", nexmarkTableNames[k], nexmarkTableNames[kind])
					continue
				}
				require.True(t, row.IsValid(i))
				var vals []string
				for f := range row.NumField() {
					vals = append(vals, row.Field(f).ValueStr(i))
				}
				byKind[k] = append(byKind[k], strings.Join(vals, "|"))
			}
		}
	})
	return byKind, types
}

func TestNexmarkEventsFollowTheMix(t *testing.T) {
	g, schema := newEvents(5000, 0, [3]int64{})
	require.Equal(t, int64(5000), g.Rows())
	_, types := eventRows(t, g, schema, 4096)
	count := map[int32]int{}
	for _, k := range types {
		count[k]++
	}
	require.Equal(t, map[int32]int{0: 100, 1: 300, 2: 4600}, count)
	require.Equal(t, []int32{0, 1, 1, 1, 2}, types[:5])
	require.Equal(t, []int32{2, 0, 1}, types[49:52])

	// Other proportions: of every 20 events 2 persons, 5 auctions, 13 bids;
	// 103 events are 5 cycles and 2 persons and an auction.
	g, schema = newEvents(103, 0, [3]int64{2, 5, 13})
	_, types = eventRows(t, g, schema, 7)
	count = map[int32]int{}
	for _, k := range types {
		count[k]++
	}
	require.Equal(t, map[int32]int{0: 12, 1: 26, 2: 65}, count)
	require.Equal(t, []int32{0, 0, 1, 1, 1, 1, 1, 2}, types[:8])
}

// The ROW of each event's kind holds the row the per-table form gives
// for that event: the same draws, whatever the proportions.
func TestNexmarkEventsEqualTheTables(t *testing.T) {
	for _, p := range [][3]int64{{}, {2, 5, 13}, {1, 1, 1}} {
		g, schema := newEvents(2345, 9, p)
		byKind, _ := eventRows(t, g, schema, 4096)
		for k, table := range nexmarkTableNames {
			tg, tschema := newNexmark(table, 2345, 9)
			tg.Proportions = p
			want := generatortest.Drain(t, tg, tschema, 4096)
			require.Equal(t, want, byKind[k], "%s with proportions %v", table, p)
		}
	}
}

func TestNexmarkEventsAreDeterministicWhateverTheBatchSize(t *testing.T) {
	g, schema := newEvents(3000, 42, [3]int64{})
	want := generatortest.Drain(t, g, schema, 4096)
	for _, size := range []int{1, 7} {
		require.Equal(t, want, generatortest.Drain(t, g, schema, size), "batch size %d", size)
	}
	other, _ := newEvents(3000, 43, [3]int64{})
	require.NotEqual(t, want, generatortest.Drain(t, other, schema, 4096))
}

// A ROW column the query does not read is all NULL, and costs nothing
// to draw; the others are as when everything is read.
func TestNexmarkEventsSkipTheRowsNotRead(t *testing.T) {
	g, schema := newEvents(500, 3, [3]int64{})
	all := generatortest.Drain(t, g, schema, 64)
	g.Read = []bool{true, false, false, true}
	pruned := generatortest.Drain(t, g, schema, 64)
	require.Len(t, pruned, len(all))
	for i := range all {
		a, p := strings.Split(all[i], "|"), strings.Split(pruned[i], "|")
		require.Equal(t, a[0], p[0])
		require.Equal(t, a[3], p[3])
		require.Equal(t, []string{"(null)", "(null)"}, p[1:3])
	}
}

// A ROW read only for its dateTime (the event table's computed dateTime
// reads every ROW) is made of its validity and times: the same ROWs'
// dateTime, the other fields empty.
func TestNexmarkEventsMakeOnlyTheTimesOfRowsReadForThem(t *testing.T) {
	g, schema := newEvents(700, 3, [3]int64{})
	all := drainColumns(t, g, schema, 64)
	g.Read = []bool{true, true, true, true}
	g.Fields = [][]string{nil, {"datetime"}, {"dateTime"}, nil}
	times := drainColumns(t, g, schema, 64)
	require.Equal(t, all[0], times[0])
	require.Equal(t, all[3], times[3])
	for c := 1; c <= 2; c++ {
		for i := range all[c] {
			a, p := all[c][i], times[c][i]
			require.Equal(t, a == nil, p == nil, "row %d", i)
			if a == nil {
				continue
			}
			ts := slices.IndexFunc(EventColumns()[c].Type.(*arrow.StructType).Fields(), func(f arrow.Field) bool { return f.Name == "dateTime" })
			for f := range a {
				if f == ts {
					require.Equal(t, a[f], p[f])
				} else {
					require.Contains(t, []string{"0", "", "1970-01-01T00:00:00"}, p[f])
				}
			}
		}
	}
}

// drainColumns reads every column: per column and row, a ROW's fields
// (nil when it is NULL) or the value, copied: a string's value is over the
// batch's memory, which the generator reuses once the batch is released.
func drainColumns(t *testing.T, g *Source, schema *arrow.Schema, size int) [][][]string {
	t.Helper()
	out := make([][][]string, schema.NumFields())
	generatortest.EachBatch(t, g, schema, size, func(rec arrow.RecordBatch) {
		for c, col := range rec.Columns() {
			for i := range col.Len() {
				row, ok := col.(*array.Struct)
				switch {
				case !ok:
					out[c] = append(out[c], []string{strings.Clone(col.ValueStr(i))})
				case row.IsNull(i):
					out[c] = append(out[c], nil)
				default:
					var vals []string
					for f := range row.NumField() {
						vals = append(vals, strings.Clone(row.Field(f).ValueStr(i)))
					}
					out[c] = append(out[c], vals)
				}
			}
		}
	})
	return out
}

func TestNexmarkEventsUnbounded(t *testing.T) {
	g, _ := newEvents(-1, 0, [3]int64{})
	require.False(t, g.Bounded())
	require.Equal(t, int64(-1), g.Rows())
	require.Equal(t, int64(77), g.EventID(77))
}
