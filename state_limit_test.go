package wsql

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/windowop"
)

// A query over many keys stops at 'wsql.state.max-bytes' with an error
// that names the limit, the state, the open windows and keys and what to
// do; every Arrow buffer is released.
func TestStateMaxBytes(t *testing.T) {
	query := `CREATE TABLE g (k INT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = '200000', 'rows-per-second' = '0',
      'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '200000',
      'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '199999');
SELECT k, COUNT(*) AS n FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' HOUR);`
	for _, par := range []int{1, 3} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		e := New(WithAllocator(mem), WithParallelism(par))
		var rows int64
		err := e.Run(context.Background(), "SET 'wsql.state.max-bytes' = '1 mb';\n"+query, Output{
			NewWriter: func(r ResultInfo) (ResultWriter, error) { return countingWriter{&rows}, nil },
		})
		require.Error(t, err)
		require.True(t, errors.Is(err, windowop.ErrStateLimit), err)
		require.Regexp(t, `the window aggregation holds about [\d.]+ (kb|mb) of state, more than 'wsql.state.max-bytes' allows \(`+
			map[int]string{1: `1\.0 mb`, 3: `341\.3 kb`}[par]+`\): \d+ open windows over \d+ keys`, err.Error())
		require.Contains(t, err.Error(), "Use a smaller window, slide, step or session gap, group by fewer keys, or raise 'wsql.state.max-bytes'")
		require.Zero(t, rows, "the hour never closed")
		mem.AssertSize(t, 0)
		require.NoError(t, e.Close())
	}

	// a limit the state stays under changes nothing
	var rows int64
	e := New()
	err := e.Run(context.Background(), "SET 'wsql.state.max-bytes' = '64 MB';\n"+query, Output{
		NewWriter: func(r ResultInfo) (ResultWriter, error) { return countingWriter{&rows}, nil },
	})
	require.NoError(t, err)
	require.Equal(t, int64(200000), rows)
}

func TestStateMaxBytesValues(t *testing.T) {
	for v, want := range map[string]int64{
		"1024": 1024, "512 kb": 512 << 10, "64mb": 64 << 20, "1 GB": 1 << 30, "256 MB": 256 << 20,
		"10 bytes": 10, "2 tebibytes": 2 << 40, " 3 m ": 3 << 20,
	} {
		got, err := setting.ParseMemorySize(setting.StateMaxBytes, v)
		require.NoError(t, err, v)
		require.Equal(t, want, got, v)
	}
	for _, v := range []string{"", "0", "-1 mb", "1.5 gb", "mb", "12 parsecs", "99999999999 tb"} {
		_, err := setting.ParseMemorySize(setting.StateMaxBytes, v)
		require.ErrorContains(t, err, "use a positive size such as '512 kb', '64 mb', '1 gb' or a number of bytes", v)
	}
	out := runScript(t, "SET 'wsql.state.max-bytes' = 'lots';", 4096)
	require.Contains(t, out, `invalid 'wsql.state.max-bytes' "lots"`)
}

type countingWriter struct{ n *int64 }

func (w countingWriter) WriteBatch(rec RecordBatch) error { *w.n += rec.NumRows(); return nil }
func (w countingWriter) Close() error                     { return nil }

// 'wsql.state.max-bytes' counts what the state really holds: the windows
// a HOP or CUMULATE row opens (each with its timers), the values of
// LISTAGG, ARRAY_AGG and COLLECT, and COUNT DISTINCT's sets. Each query here holds tens of megabytes in a few
// keys and slots, and stops at a 4 mb limit; under a limit it stays below,
// it runs to the end.
func TestStateMaxBytesCountsContents(t *testing.T) {
	const gen = `CREATE TABLE g (k INT, v BIGINT, s STRING, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'datagen', 'number-of-rows' = 'ROWS', 'rows-per-second' = '0', 'seed' = '7',
      'fields.k.min' = '1', 'fields.k.max' = '3', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '1000000',
      'fields.s.length' = 'LEN', 'fields.ms.kind' = 'sequence', 'fields.ms.start' = '0', 'fields.ms.end' = '1000000');
`
	cases := map[string]struct {
		rows, len, query, holds string
		results                 int64
	}{
		"hop": {"30", "1", `SELECT k, COUNT(*) FROM g GROUP BY k, HOP(ts, INTERVAL '1' SECOND, INTERVAL '1' DAY)`,
			`in 259200 window timers`, 3 * 86400},
		"cumulate": {"30", "1", `SELECT k, COUNT(*) FROM g GROUP BY k, CUMULATE(ts, INTERVAL '1' SECOND, INTERVAL '1' DAY)`,
			`in 259200 window timers`, 3 * 86400},
		"listagg": {"20000", "1000", `SELECT k, LISTAGG(s) FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' HOUR)`,
			`[\d.]+ mb in aggregate values`, 3},
		"array_agg": {"20000", "1000", `SELECT k, ARRAY_AGG(s) FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' HOUR)`,
			`[\d.]+ mb in aggregate values`, 3},
		"collect": {"300000", "1", `SELECT k, COLLECT(v) FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' HOUR)`,
			`[\d.]+ mb in aggregate values`, 3},
		"count distinct": {"300000", "1", `SELECT k, COUNT(DISTINCT v) FROM g GROUP BY k, TUMBLE(ts, INTERVAL '1' HOUR)`,
			`[\d.]+ mb in aggregate values`, 3},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			src := strings.NewReplacer("ROWS", c.rows, "LEN", c.len).Replace(gen) + c.query + ";"
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			e := New(WithAllocator(mem))
			var rows int64
			out := Output{NewWriter: func(r ResultInfo) (ResultWriter, error) { return countingWriter{&rows}, nil }}
			err := e.Run(context.Background(), "SET 'wsql.state.max-bytes' = '4 mb';\n"+src, out)
			require.Error(t, err)
			require.True(t, errors.Is(err, windowop.ErrStateLimit), err)
			require.Regexp(t, `holds about [\d.]+ mb of state, more than 'wsql.state.max-bytes' allows \(4\.0 mb\).*`+c.holds, err.Error())
			require.Zero(t, rows)
			mem.AssertSize(t, 0)

			require.NoError(t, e.Close())

			rows = 0
			e = New(WithAllocator(mem))
			require.NoError(t, e.Run(context.Background(), "SET 'wsql.state.max-bytes' = '1 gb';\n"+src, out))
			require.Equal(t, c.results, rows)
			mem.AssertSize(t, 0)
			require.NoError(t, e.Close())
		})
	}
}
