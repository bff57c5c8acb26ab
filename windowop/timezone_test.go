package windowop

import (
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/pipeline"
	"github.com/wsql/wsql/rowtime"
)

var ltzClickSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
	{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

func ms(t *testing.T, layout string, loc *time.Location) int64 {
	v, err := time.ParseInLocation("2006-01-02 15:04:05", layout, loc)
	require.NoError(t, err)
	return v.UnixMilli()
}

// runLTZ runs one-day tumbling windows over a TIMESTAMP_LTZ rowtime aligned
// in zone, feeding one row per batch with the watermark = ts.
func runLTZ(t *testing.T, zone string, epochs []int64) []string {
	loc, err := time.LoadLocation(zone)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tum, _ := NewTumble(24*3600*1000, 0)
	cfg := Config{Input: ltzClickSchema, RowtimeIndex: 0, KeyIndexes: nil, Assigner: tum, GapIndex: -1,
		Local: rowtime.NewLocalTime(loc), Aggs: []AggSpec{{Kind: CountStar, Name: "n"}}}
	out, err := cfg.OutputSchema()
	require.NoError(t, err)
	require.Equal(t, "timestamp[ms]", out.Field(0).Type.String(), "window_start is a local TIMESTAMP")
	require.Equal(t, `timestamp[ms, tz=UTC]`, out.Field(2).Type.String(), "window_time stays TIMESTAMP_LTZ")
	rec := &recorder{}
	op, err := NewWindowOperator(cfg, mem, rec)
	require.NoError(t, err)
	defer op.Close()
	wm := int64(-1 << 63)
	for _, e := range epochs {
		b := clickBatchSchema(t, mem, ltzClickSchema, []click{{ts: e, usr: "x"}})
		require.NoError(t, op.ProcessBatch(pipeline.Batch{Record: b, Watermarks: []int64{wm}}))
		b.Release()
		wm = e
		require.NoError(t, op.ProcessWatermark(wm))
	}
	require.NoError(t, op.ProcessEnd())
	return rowsOnly(rec.events)
}

func TestOneDayWindowClosesAtLocalMidnight(t *testing.T) {
	sh, _ := time.LoadLocation("Asia/Shanghai")
	rows := runLTZ(t, "Asia/Shanghai", []int64{
		ms(t, "2024-03-01 23:59:59", sh), // 15:59:59 UTC: still March 1st in Shanghai
		ms(t, "2024-03-02 00:00:01", sh), // 16:00:01 UTC: March 2nd: the first window fires
	})
	localStart := ms(t, "2024-03-01 00:00:00", time.UTC) // local wall time as a zone-less value
	endInstant := ms(t, "2024-03-02 00:00:00", sh) - 1   // 2024-03-01 15:59:59.999 UTC
	require.Equal(t, []string{
		"row " + itoa(localStart) + " " + itoa(localStart+86_400_000) + " " + itoa(endInstant) + " 1",
		"row " + itoa(localStart+86_400_000) + " " + itoa(localStart+2*86_400_000) + " " + itoa(endInstant+86_400_000) + " 1",
	}, rows)
}

func TestDaylightSavingDayIs23Hours(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	rows := runLTZ(t, "America/New_York", []int64{
		ms(t, "2024-03-10 12:00:00", ny), // the spring-forward day
		ms(t, "2024-03-11 12:00:00", ny),
	})
	start := ms(t, "2024-03-10 00:00:00", ny)
	fire := ms(t, "2024-03-11 00:00:00", ny) - 1
	require.Equal(t, int64(23*3600*1000), fire+1-start, "the local day has 23 hours")
	require.Contains(t, rows[0], " "+itoa(fire)+" 1", "the window's rowtime is the instant before local midnight")
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
