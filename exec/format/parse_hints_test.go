package format

import (
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// parallelError reads input with the parallel CSV decoder and returns its error.
func parallelError(t *testing.T, input string, schema *arrow.Schema, opts CSVOptions) error {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := NewParallelCSVDecoder(strings.NewReader(input), "in.csv", schema, opts, mem, 0, 1, SplitPosition{})
	defer d.Close()
	for {
		rec, err := d.Next()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		rec.Release()
	}
}

func TestCSVHeaderLineHint(t *testing.T) {
	schema := csvSchema("ts", tsType, "k", arrow.BinaryTypes.String)
	const input = "TS, k\n2024-03-01 09:00:00,a\n"
	_, err := decodeString(t, input, schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:1:1 (column ts): cannot parse "TS" as TIMESTAMP(3): expected yyyy-MM-dd HH:mm:ss[.SSS]. `+
		`This line looks like a header (its fields are the table's column names): skip it with 'csv.ignore-first-line' = 'true'`)
	require.EqualError(t, parallelError(t, input, schema, CSVOptions{}), err.Error())

	_, err = decodeString(t, input+input, schema, CSVOptions{IgnoreFirstLine: true})
	require.ErrorContains(t, err, "in.csv:3:1 (column ts)")
	require.ErrorContains(t, err, "but 'csv.ignore-first-line' skips only the file's first line: remove it")

	// not the column names: no hint
	_, err = decodeString(t, "time,k\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:1:1 (column ts): cannot parse "time" as TIMESTAMP(3): expected yyyy-MM-dd HH:mm:ss[.SSS]`)

	// a skipped row is reported as before, without a hint
	var reported []string
	_, err = decodeString(t, input, schema, CSVOptions{IgnoreParseErrors: true, OnBadRow: func(e *ParseError, _ []byte) {
		reported = append(reported, e.Error())
	}})
	require.NoError(t, err)
	require.Equal(t, []string{`in.csv:1:1 (column ts): cannot parse "TS" as TIMESTAMP(3): expected yyyy-MM-dd HH:mm:ss[.SSS]`}, reported)
}

func TestEpochTimestampHint(t *testing.T) {
	schema := csvSchema("ts", tsType, "k", arrow.BinaryTypes.String)
	_, err := decodeString(t, "1714557601000,a\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:1:1 (column ts): cannot parse "1714557601000" as TIMESTAMP(3): expected yyyy-MM-dd HH:mm:ss[.SSS]. `+
		"The value looks like epoch milliseconds: declare the column BIGINT and compute the timestamp from it:\n"+
		"  epoch_ms BIGINT,\n"+
		"  ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3),")
	require.EqualError(t, parallelError(t, "1714557601000,a\n", schema, CSVOptions{}), err.Error())

	_, err = decodeString(t, "1714557601,a\n", csvSchema("at", ltzType, "k", arrow.BinaryTypes.String), CSVOptions{})
	require.ErrorContains(t, err, "epoch seconds: declare the column BIGINT and compute the timestamp from it:\n  epoch_s BIGINT,\n  at AS TO_TIMESTAMP_LTZ(epoch_s, 0),")

	for _, in := range []string{`{"ts": 1714557601000}`, `{"ts": "1714557601000"}`} {
		_, err = decodeJSON(t, in+"\n", schema, JSONOptions{}, 0)
		require.ErrorContains(t, err, "in.json:1 (column ts)", in)
		require.ErrorContains(t, err, "  ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3),", in)
	}

	// other numbers, or other types: no hint
	_, err = decodeString(t, "17145576010,a\n", schema, CSVOptions{})
	require.NotContains(t, err.Error(), "epoch")
	_, err = decodeString(t, "2024-03-01 09:00:00,a\n", csvSchema("ts", tsType, "k", arrow.PrimitiveTypes.Int32), CSVOptions{})
	require.NotContains(t, err.Error(), "epoch")
}

func TestZonedTimestampHint(t *testing.T) {
	const hint = `The value has a time zone ('Z' or a UTC offset), which TIMESTAMP(3) does not take: ` +
		`declare the column TIMESTAMP_LTZ(3), which reads ISO-8601 text with a zone as it is, no format option needed`
	schema := csvSchema("ts", tsType, "k", arrow.BinaryTypes.String)
	for _, in := range []string{"2024-05-01T10:00:01Z", "2024-05-01 10:00:01.5+02:00", "2024-05-01T10:00:01-0700"} {
		_, err := decodeString(t, in+",a\n", schema, CSVOptions{})
		require.EqualError(t, err, `in.csv:1:1 (column ts): cannot parse "`+in+`" as TIMESTAMP(3): expected yyyy-MM-dd HH:mm:ss[.SSS]. `+hint)
		require.EqualError(t, parallelError(t, in+",a\n", schema, CSVOptions{}), err.Error())
		// what the hint says reads the value
		rows, err := decodeString(t, in+",a\n", csvSchema("ts", ltzType, "k", arrow.BinaryTypes.String), CSVOptions{})
		require.NoError(t, err)
		require.Len(t, rows, 1)
	}

	for _, std := range []TimestampStandard{TimestampSQL, TimestampISO8601} {
		_, err := decodeJSON(t, `{"ts": "2024-05-01T10:00:01Z"}`+"\n", schema, JSONOptions{TimestampStandard: std}, 0)
		require.ErrorContains(t, err, `in.json:1 (column ts): cannot parse "2024-05-01T10:00:01Z" as TIMESTAMP(3)`)
		require.ErrorContains(t, err, ". "+hint)
		rows, err := decodeJSON(t, `{"ts": "2024-05-01T10:00:01Z"}`+"\n", csvSchema("ts", ltzType), JSONOptions{TimestampStandard: std}, 0)
		require.NoError(t, err)
		require.Len(t, rows, 1)
	}

	// the column already takes a zone, or a date alone has none: no hint
	_, err := decodeString(t, "2024-05-01T10:00:01+25:00,a\n", csvSchema("ts", ltzType, "k", arrow.BinaryTypes.String), CSVOptions{})
	require.NotContains(t, err.Error(), "time zone")
	_, err = decodeString(t, "2024-05-01,a\n", schema, CSVOptions{})
	require.NotContains(t, err.Error(), "time zone")
}
