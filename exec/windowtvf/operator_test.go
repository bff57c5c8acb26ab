package windowtvf

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/pipeline/pipelinetest"
	"github.com/wsql/wsql/rowtime"
)

var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}},
}, nil)

func testBatch(mem memory.Allocator, keys []string, ts []int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, testSchema)
	defer b.Release()
	for i, k := range keys {
		if k == "" {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.StringBuilder).Append(k)
		}
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(ts[i]))
	}
	return b.NewRecordBatch()
}

// collector keeps the rows it is sent as text, and the per-row watermarks.
type collector struct {
	rows []string
	wms  []int64
}

func (c *collector) ProcessBatch(b pipeline.Batch) error {
	rec := b.Record
	for i := 0; i < int(rec.NumRows()); i++ {
		var f []string
		for j := 0; j < int(rec.NumCols()); j++ {
			a := rec.Column(j)
			if a.IsNull(i) {
				f = append(f, "NULL")
				continue
			}
			if t, ok := a.(*array.Timestamp); ok {
				f = append(f, fmt.Sprint(int64(t.Value(i))))
				continue
			}
			f = append(f, a.ValueStr(i))
		}
		c.rows = append(c.rows, strings.Join(f, ","))
		if b.Watermarks != nil {
			c.wms = append(c.wms, b.Watermarks[i])
		}
	}
	return nil
}
func (c *collector) ProcessWatermark(int64) error { return nil }
func (c *collector) ProcessEnd() error            { return nil }
func (c *collector) Close()                       {}

func run(t *testing.T, cfg Config, keys []string, ts []int64, wms []int64) *collector {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cfg.Input = testSchema
	out := &collector{}
	op, err := New(cfg, mem, out)
	require.NoError(t, err)
	defer op.Close()
	rec := testBatch(mem, keys, ts)
	defer rec.Release()
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec, Watermarks: wms}))
	require.NoError(t, op.ProcessEnd())
	return out
}

// The cases of Flink's WindowTableFunctionOperatorTest, in the order
// Flink's assigners give the windows (HOP by decreasing start, CUMULATE by
// increasing end); a late row (80 after 3999) comes out too.
func TestWindowsOfEachRowInFlinksOrder(t *testing.T) {
	keys, ts := []string{"key1", "key2", "key2"}, []int64{20, 3999, 80}
	wms := []int64{-10, 1000, 2000}
	cases := []struct {
		name string
		cfg  Config
		want []string
		wms  []int64
	}{
		{"tumble", Config{RowtimeIndex: 1, Kind: Tumble, Size: 3000}, []string{
			"key1,20,0,3000,2999", "key2,3999,3000,6000,5999", "key2,80,0,3000,2999",
		}, wms},
		{"hop", Config{RowtimeIndex: 1, Kind: Hop, Slide: 1000, Size: 3000}, []string{
			"key1,20,0,3000,2999", "key1,20,-1000,2000,1999", "key1,20,-2000,1000,999",
			"key2,3999,3000,6000,5999", "key2,3999,2000,5000,4999", "key2,3999,1000,4000,3999",
			"key2,80,0,3000,2999", "key2,80,-1000,2000,1999", "key2,80,-2000,1000,999",
		}, []int64{-10, -10, -10, 1000, 1000, 1000, 2000, 2000, 2000}},
		{"cumulate", Config{RowtimeIndex: 1, Kind: Cumulate, Step: 1000, Size: 3000}, []string{
			"key1,20,0,1000,999", "key1,20,0,2000,1999", "key1,20,0,3000,2999",
			"key2,3999,3000,4000,3999", "key2,3999,3000,5000,4999", "key2,3999,3000,6000,5999",
			"key2,80,0,1000,999", "key2,80,0,2000,1999", "key2,80,0,3000,2999",
		}, []int64{-10, -10, -10, 1000, 1000, 1000, 2000, 2000, 2000}},
		{"tumble with offset", Config{RowtimeIndex: 1, Kind: Tumble, Size: 3000, Offset: 1000}, []string{
			"key1,20,-2000,1000,999", "key2,3999,1000,4000,3999", "key2,80,-2000,1000,999",
		}, wms},
		{"hop with a gap between windows", Config{RowtimeIndex: 1, Kind: Hop, Slide: 2000, Size: 1000}, []string{
			"key1,20,0,1000,999", "key2,80,0,1000,999",
		}, []int64{-10, 2000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(t, c.cfg, keys, ts, wms)
			require.Equal(t, c.want, got.rows)
			require.Equal(t, c.wms, got.wms)
		})
	}
}

// Over a TIMESTAMP_LTZ rowtime windows align in the session time zone:
// the bounds are wall-clock times there, window_time an instant.
func TestWindowsInTheSessionTimeZone(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	require.NoError(t, err)
	ltz := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
	}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	out := &collector{}
	op, err := New(Config{Input: ltz, RowtimeIndex: 1, Kind: Tumble, Size: 86400000, Local: rowtime.NewLocalTime(shanghai)}, mem, out)
	require.NoError(t, err)
	require.Equal(t, "window_time", op.Schema().Field(4).Name)
	require.Equal(t, "UTC", op.Schema().Field(4).Type.(*arrow.TimestampType).TimeZone)
	require.Equal(t, "", op.Schema().Field(2).Type.(*arrow.TimestampType).TimeZone)
	b := array.NewRecordBuilder(mem, ltz)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).Append("a")
	b.Field(1).(*array.TimestampBuilder).Append(0) // 08:00 in Shanghai
	rec := b.NewRecordBatch()
	defer rec.Release()
	require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: rec}))
	// the Shanghai day 1970-01-01 as local times; its last ms as an instant
	require.Equal(t, []string{"a,0,0,86400000,57599999"}, out.rows)
}

func TestOperatorConformance(t *testing.T) {
	for _, kind := range []Kind{Tumble, Hop, Cumulate} {
		t.Run(fmt.Sprint(kind), func(t *testing.T) {
			cfg := Config{Input: testSchema, RowtimeIndex: 1, Kind: kind, Size: 3000, Slide: 1000, Step: 1000}
			pipelinetest.TestOperator(t, pipelinetest.Harness{
				New: func(mem memory.Allocator, next pipeline.Operator) (pipeline.Operator, error) {
					return New(cfg, mem, next)
				},
				Input: func(mem memory.Allocator) []pipelinetest.Step {
					return []pipelinetest.Step{
						pipelinetest.BatchStep(testBatch(mem, []string{"a", "", "b"}, []int64{20, 1500, 3999}), []int64{0, 10, 1000}),
						pipelinetest.WatermarkStep(1000),
						pipelinetest.BatchStep(testBatch(mem, []string{"c"}, []int64{5000}), nil),
						pipelinetest.WatermarkStep(4000),
					}
				},
			})
		})
	}
}

func TestRefusesWindowsItCannotAssign(t *testing.T) {
	_, err := New(Config{Input: testSchema, RowtimeIndex: 1, Kind: Cumulate, Step: 700, Size: 1000}, memory.NewGoAllocator(), &collector{})
	require.Error(t, err)
	_, err = New(Config{Input: testSchema, RowtimeIndex: 0, Kind: Tumble, Size: 1000}, memory.NewGoAllocator(), &collector{})
	require.ErrorContains(t, err, "must be a millisecond timestamp")
}
