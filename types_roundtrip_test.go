package wsql

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/intervaltext"
	"github.com/wsql/wsql/exec/format/writer"
)

// typeCase is one column of the round trip: a column of the CSV table
// (decl) or one the query computes (expr), its text in row 1 as the CSV
// writer and the print sink write it, its Arrow type, and the Go value
// Rows.Scan gives for it. Row 2 is NULL in every column.
type typeCase struct {
	name, decl, expr string
	text             string
	arrow            arrow.DataType
	// the CSV input, when it is not text: an interval's number of
	// milliseconds or months, as Flink's csv format reads and writes it
	input string
	// what the JSON writer gives, when it is not the CSV text (intervals
	// are written as numbers, as Flink's json format does); a computed
	// column is read back from JSON declared readAs
	jsonText, readAs string
	// Parquet: the type read back and the text of it, when not the same
	parquet     arrow.DataType
	parquetText string
	dest        func() any // a new Scan destination
	want        any        // *dest after Scan
}

func at(ns int) time.Time { return time.Date(2024, 3, 1, 12, 0, 1, ns, time.UTC) }

var typeCases = []typeCase{
	{name: "ti", decl: "TINYINT", text: "-8", arrow: arrow.PrimitiveTypes.Int8, dest: func() any { return new(int8) }, want: int8(-8)},
	{name: "si", decl: "SMALLINT", text: "300", arrow: arrow.PrimitiveTypes.Int16, dest: func() any { return new(int16) }, want: int16(300)},
	{name: "i", decl: "INT", text: "-70000", arrow: arrow.PrimitiveTypes.Int32, dest: func() any { return new(int32) }, want: int32(-70000)},
	{name: "bi", decl: "BIGINT", text: "9000000000", arrow: arrow.PrimitiveTypes.Int64, dest: func() any { return new(int64) }, want: int64(9000000000)},
	{name: "f", decl: "FLOAT", text: "1.5", arrow: arrow.PrimitiveTypes.Float32, dest: func() any { return new(float32) }, want: float32(1.5)},
	{name: "d", decl: "DOUBLE", text: "0.1", arrow: arrow.PrimitiveTypes.Float64, dest: func() any { return new(float64) }, want: 0.1},
	{name: "dec", decl: "DECIMAL(12, 3)", text: "12345.678", arrow: &arrow.Decimal128Type{Precision: 12, Scale: 3}, dest: func() any { return new(string) }, want: "12345.678"},
	{name: "decf", decl: "DECIMAL(5, 2)", text: "-1.25", arrow: &arrow.Decimal128Type{Precision: 5, Scale: 2}, dest: func() any { return new(float64) }, want: -1.25},
	{name: "b", decl: "BOOLEAN", text: "true", arrow: arrow.FixedWidthTypes.Boolean, dest: func() any { return new(bool) }, want: true},
	{name: "s", decl: "STRING", text: `"a, ""quoted"" text"`, arrow: arrow.BinaryTypes.String, dest: func() any { return new(string) }, want: `a, "quoted" text`},
	{name: "c", decl: "CHAR(3)", text: "ab", arrow: arrow.BinaryTypes.String, dest: func() any { return new(string) }, want: "ab"},
	{name: "vc", decl: "VARCHAR(5)", text: "héllo", arrow: arrow.BinaryTypes.String, dest: func() any { return new(string) }, want: "héllo"},
	{name: "bin", decl: "BINARY(2)", text: "AAE=", arrow: arrow.BinaryTypes.Binary, dest: func() any { return new([]byte) }, want: []byte{0, 1}},
	{name: "vb", decl: "VARBINARY(4)", text: "/w==", arrow: arrow.BinaryTypes.Binary, dest: func() any { return new([]byte) }, want: []byte{0xff}},
	{name: "by", decl: "BYTES", text: "aGk=", arrow: arrow.BinaryTypes.Binary, dest: func() any { return new([]byte) }, want: []byte("hi")},
	{name: "dt", decl: "DATE", text: "2024-02-29", arrow: arrow.FixedWidthTypes.Date32, dest: func() any { return new(time.Time) }, want: time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
	// Parquet's TIME has no unit of seconds: TIME(0) is kept in milliseconds
	{name: "t0", decl: "TIME(0)", text: "12:00:01", arrow: arrow.FixedWidthTypes.Time32s, parquet: arrow.FixedWidthTypes.Time32ms, parquetText: "12:00:01.000",
		dest: func() any { return new(string) }, want: "12:00:01"},
	{name: "t3", decl: "TIME(3)", text: "23:59:59.999", arrow: arrow.FixedWidthTypes.Time32ms, dest: func() any { return new(string) }, want: "23:59:59.999"},
	{name: "ts0", decl: "TIMESTAMP(0)", text: "2024-03-01 12:00:01", arrow: &arrow.TimestampType{Unit: arrow.Second},
		parquet: &arrow.TimestampType{Unit: arrow.Millisecond}, parquetText: "2024-03-01 12:00:01.000", dest: func() any { return new(time.Time) }, want: at(0)},
	{name: "ts3", decl: "TIMESTAMP(3)", text: "2024-03-01 12:00:01.123", arrow: &arrow.TimestampType{Unit: arrow.Millisecond}, dest: func() any { return new(time.Time) }, want: at(123000000)},
	{name: "ts6", decl: "TIMESTAMP(6)", text: "2024-03-01 12:00:01.123456", arrow: &arrow.TimestampType{Unit: arrow.Microsecond}, dest: func() any { return new(time.Time) }, want: at(123456000)},
	{name: "ts9", decl: "TIMESTAMP(9)", text: "2024-03-01 12:00:01.123456789", arrow: &arrow.TimestampType{Unit: arrow.Nanosecond}, dest: func() any { return new(time.Time) }, want: at(123456789)},
	{name: "ltz3", decl: "TIMESTAMP_LTZ(3)", text: "2024-03-01 12:00:01.123", arrow: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"},
		jsonText: `"2024-03-01 12:00:01.123Z"`, dest: func() any { return new(time.Time) }, want: at(123000000)},
	{name: "ltz9", decl: "TIMESTAMP_LTZ(9)", text: "2024-03-01 12:00:01.123456789", arrow: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"},
		jsonText: `"2024-03-01 12:00:01.123456789Z"`, dest: func() any { return new(time.Time) }, want: at(123456789)},
	// intervals, declared (read from their numbers, as Flink's csv and
	// json formats read them) and computed
	{name: "idt", decl: "INTERVAL DAY TO SECOND(3)", input: "90061001", text: "+1 01:01:01.001", arrow: arrow.FixedWidthTypes.Duration_ms,
		jsonText: "90061001", parquet: arrow.PrimitiveTypes.Int64, parquetText: "90061001",
		dest: func() any { return new(time.Duration) }, want: 25*time.Hour + time.Minute + time.Second + time.Millisecond},
	{name: "iym", decl: "INTERVAL YEAR TO MONTH", input: "-14", text: "-1-02", arrow: arrow.FixedWidthTypes.MonthInterval,
		jsonText: "-14", parquet: arrow.PrimitiveTypes.Int32, parquetText: "-14",
		dest: func() any { return new(int) }, want: -14},
	{name: "dts", expr: "INTERVAL '1' SECOND * ti", text: "-0 00:00:08.000", arrow: arrow.FixedWidthTypes.Duration_ms,
		jsonText: "-8000", readAs: "INTERVAL SECOND(3)", parquet: arrow.PrimitiveTypes.Int64, parquetText: "-8000",
		dest: func() any { return new(time.Duration) }, want: -8 * time.Second},
	{name: "ym", expr: "INTERVAL '1' MONTH * si", text: "+25-00", arrow: arrow.FixedWidthTypes.MonthInterval,
		jsonText: "300", readAs: "INTERVAL MONTH", parquet: arrow.PrimitiveTypes.Int32, parquetText: "300",
		dest: func() any { return new(int) }, want: 300},
}

// The CSV table, the query over it and the expected CSV of its result
// (with text picking each column's text), built from typeCases.
func typeRoundTrip(t *testing.T) (ddl, query string, want func(text func(typeCase) string) string) {
	dir := t.TempDir()
	var decls, items, row1, nulls []string
	for _, c := range typeCases {
		if c.decl != "" {
			decls = append(decls, "`"+c.name+"` "+c.decl)
			items = append(items, "`"+c.name+"`")
			row1 = append(row1, c.text)
			if c.input != "" {
				row1[len(row1)-1] = c.input
			}
			nulls = append(nulls, "")
		} else {
			items = append(items, c.expr+" AS "+c.name)
		}
	}
	path := filepath.Join(dir, "types.csv")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(row1, ",")+"\n"+strings.Join(nulls, ",")+"\n"), 0o644))
	ddl = "SET 'table.local-time-zone' = 'UTC';\nCREATE TABLE types (" + strings.Join(decls, ", ") + ") WITH ('connector' = 'filesystem', 'path' = '" + filepath.ToSlash(path) + "', 'format' = 'csv');\n"
	query = "SELECT " + strings.Join(items, ", ") + " FROM types"
	want = func(text func(typeCase) string) string {
		var names, vals, empty []string
		for _, c := range typeCases {
			names = append(names, c.name)
			vals = append(vals, text(c))
			empty = append(empty, "")
		}
		return strings.Join(names, ",") + "\n" + strings.Join(vals, ",") + "\n" + strings.Join(empty, ",") + "\n"
	}
	return ddl, query, want
}

// Every scalar type and both interval kinds round-trip CSV → query → CSV,
// JSON (read back by the json format), Arrow IPC and Parquet (read back by
// arrow-go's readers, compared type by type and value by value), and into
// Go values through Rows.Scan (NULL into pointers).
func TestEveryTypeRoundTrips(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ddl, query, want := typeRoundTrip(t)
	src := ddl + query + ";"
	csvText := func(c typeCase) string { return c.text }
	var schema *arrow.Schema
	require.Equal(t, want(csvText), string(runWith(t, src, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter {
		schema = r.Schema
		return NewCSVWriter(w, r.Schema, time.UTC)
	})))
	for i, c := range typeCases {
		require.Truef(t, arrow.TypeEqual(c.arrow, schema.Field(i).Type), "%s: %s", c.name, schema.Field(i).Type)
	}

	t.Run("json", func(t *testing.T) {
		out := runWith(t, src, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewJSONWriter(w, r.Schema, time.UTC) })
		var fields, decls []string
		for _, c := range typeCases {
			v := c.text
			if c.jsonText != "" {
				v = c.jsonText
			}
			if !strings.HasPrefix(v, `"`) && c.arrow.ID() != arrow.BOOL && !arrow.IsInteger(c.arrow.ID()) && !arrow.IsFloating(c.arrow.ID()) && c.arrow.ID() != arrow.DECIMAL128 && !intervaltext.IsInterval(c.arrow) {
				v = `"` + v + `"`
			}
			if c.name == "s" {
				v = `"a, \"quoted\" text"`
			}
			fields = append(fields, `"`+c.name+`":`+v)
			decl := c.decl
			if c.readAs != "" {
				decl = c.readAs
			}
			decls = append(decls, "`"+c.name+"` "+decl)
		}
		lines := strings.Split(string(out), "\n")
		require.Equal(t, "{"+strings.Join(fields, ",")+"}", lines[0])
		path := filepath.Join(t.TempDir(), "out.jsonl")
		require.NoError(t, os.WriteFile(path, out, 0o644))
		back := ddl + "CREATE TABLE back (" + strings.Join(decls, ", ") + ") WITH ('connector' = 'filesystem', 'path' = '" + filepath.ToSlash(path) + "', 'format' = 'json');\nSELECT * FROM back;"
		require.Equal(t, want(csvText), string(runWith(t, back, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewCSVWriter(w, r.Schema, time.UTC) })))
	})

	t.Run("arrow", func(t *testing.T) {
		out := runWith(t, src, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewArrowWriter(w, r.Schema) })
		rd, err := ipc.NewReader(bytes.NewReader(out), ipc.WithAllocator(mem))
		require.NoError(t, err)
		defer rd.Release()
		require.True(t, rd.Schema().Equal(schema), rd.Schema().String())
		var recs []arrow.RecordBatch
		for rd.Next() {
			rec := rd.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
		require.NoError(t, rd.Err())
		require.Equal(t, want(csvText), csvOf(t, rd.Schema(), time.UTC, recs))
		for _, r := range recs {
			r.Release()
		}
	})

	t.Run("parquet", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "out.parquet")
		var w *bytes.Buffer
		out := runWith(t, src, mem, func(b *bytes.Buffer, r ResultInfo) ResultWriter {
			pw, err := writer.NewParquetWriter(b, r.Schema, &parquet.Snappy)
			require.NoError(t, err)
			w = b
			return pw
		})
		require.NotNil(t, w)
		require.NoError(t, os.WriteFile(path, out, 0o644))
		got, text := readParquet(t, path)
		for i, c := range typeCases {
			dt := c.arrow
			if c.parquet != nil {
				dt = c.parquet
			}
			if intervaltext.IsInterval(c.arrow) {
				v, ok := got.Field(i).Metadata.GetValue(writer.IntervalMetadataKey)
				require.True(t, ok, c.name)
				require.True(t, strings.HasPrefix(v, format.SQLTypeName(c.arrow)), "%s: %s", c.name, v)
			}
			require.Truef(t, arrow.TypeEqual(dt, got.Field(i).Type), "%s: %s", c.name, got.Field(i).Type)
		}
		require.Equal(t, want(func(c typeCase) string {
			if c.parquetText != "" {
				return c.parquetText
			}
			return c.text
		}), text)
	})

	t.Run("scan", func(t *testing.T) {
		e := New(WithAllocator(mem))
		defer e.Close()
		ctx := context.Background()
		require.NoError(t, e.Run(ctx, ddl, Output{}))
		rows, err := e.Query(ctx, query)
		require.NoError(t, err)
		defer rows.Close()
		dests := make([]any, len(typeCases))
		for i, c := range typeCases {
			dests[i] = c.dest()
		}
		require.True(t, rows.NextRow())
		require.NoError(t, rows.Scan(dests...))
		for i, c := range typeCases {
			got := reflect.ValueOf(dests[i]).Elem().Interface()
			if tm, ok := got.(time.Time); ok {
				require.Truef(t, c.want.(time.Time).Equal(tm), "%s: %s", c.name, tm)
				continue
			}
			require.Equal(t, c.want, got, c.name)
		}
		// NULL: a nil pointer of each type
		ptrs := make([]any, len(typeCases))
		for i, c := range typeCases {
			ptrs[i] = reflect.New(reflect.PointerTo(reflect.TypeOf(c.dest()).Elem())).Interface()
		}
		require.True(t, rows.NextRow())
		require.NoError(t, rows.Scan(ptrs...))
		for i, c := range typeCases {
			require.True(t, reflect.ValueOf(ptrs[i]).Elem().IsNil(), c.name)
		}
		require.False(t, rows.NextRow())
		require.NoError(t, rows.Err())
	})
}

// Interval columns of csv and json files hold numbers, as Flink's csv and
// json formats read and write them: milliseconds for a day-time interval,
// months for a year-month one. A file written by an INSERT reads back as
// the same values.
func TestIntervalColumnsRoundTripThroughFiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	require.NoError(t, os.WriteFile(in, []byte("1,90061001,14\n2,-5000,-1\n3,,\n"), 0o644))
	decl := "(n INT, d INTERVAL DAY TO SECOND(3), m INTERVAL YEAR TO MONTH)"
	table := func(name, path, format string) string {
		return "CREATE TABLE " + name + " " + decl + " WITH ('connector' = 'filesystem', 'path' = '" + filepath.ToSlash(path) + "', 'format' = '" + format + "');\n"
	}
	outCSV, outJSON := filepath.Join(dir, "out.csv"), filepath.Join(dir, "out.json")
	src := table("src", in, "csv") + table("c", outCSV, "csv") + table("j", outJSON, "json") +
		"INSERT INTO c SELECT n, d * 2, m FROM src;\nINSERT INTO j SELECT n, d, m + INTERVAL '1' YEAR FROM src;\n"
	runWith(t, src, mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewCSVWriter(w, r.Schema, time.UTC) })
	csvOut, err := os.ReadFile(outCSV)
	require.NoError(t, err)
	require.Equal(t, "1,180122002,14\n2,-10000,-1\n3,,\n", string(csvOut))
	jsonOut, err := os.ReadFile(outJSON)
	require.NoError(t, err)
	require.Equal(t, `{"n":1,"d":90061001,"m":26}`+"\n"+`{"n":2,"d":-5000,"m":11}`+"\n"+`{"n":3,"d":null,"m":null}`+"\n", string(jsonOut))
	read := func(name, path, format string) string {
		return string(runWith(t, table(name, path, format)+"SELECT * FROM "+name+";", mem, func(w *bytes.Buffer, r ResultInfo) ResultWriter { return NewCSVWriter(w, r.Schema, time.UTC) }))
	}
	require.Equal(t, "n,d,m\n1,+2 02:02:02.002,+1-02\n2,-0 00:00:10.000,-0-01\n3,,\n", read("c", outCSV, "csv"))
	require.Equal(t, "n,d,m\n1,+1 01:01:01.001,+2-02\n2,-0 00:00:05.000,+0-11\n3,,\n", read("j", outJSON, "json"))
}
