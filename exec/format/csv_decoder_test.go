package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/format/scalartext"
)

var (
	tsType  = &arrow.TimestampType{Unit: arrow.Millisecond}
	ltzType = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

func csvSchema(fields ...any) *arrow.Schema {
	var fs []arrow.Field
	for i := 0; i < len(fields); i += 2 {
		fs = append(fs, arrow.Field{Name: fields[i].(string), Type: fields[i+1].(arrow.DataType), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// decodeAll reads every batch; it returns the rows as text and the first error.
func decodeAll(t *testing.T, d *CSVDecoder) ([][]string, error) {
	t.Helper()
	var rows [][]string
	for {
		rec, err := d.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		rows = append(rows, recordRows(rec)...)
		rec.Release()
	}
}

func recordRows(rec arrow.RecordBatch) [][]string {
	var rows [][]string
	for i := 0; i < int(rec.NumRows()); i++ {
		row := make([]string, rec.NumCols())
		for j, col := range rec.Columns() {
			if col.IsNull(i) {
				row[j] = "NULL"
			} else {
				row[j] = string(AppendValue(nil, col, i, nil))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func decodeString(t *testing.T, input string, schema *arrow.Schema, opts CSVOptions) ([][]string, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	return decodeAll(t, NewCSVDecoder(strings.NewReader(input), "in.csv", schema, opts, mem, 0))
}

func TestCSVDecoderTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := csvSchema("s", arrow.BinaryTypes.String, "b", arrow.FixedWidthTypes.Boolean,
		"i8", arrow.PrimitiveTypes.Int8, "i16", arrow.PrimitiveTypes.Int16,
		"i32", arrow.PrimitiveTypes.Int32, "i64", arrow.PrimitiveTypes.Int64,
		"f32", arrow.PrimitiveTypes.Float32, "f64", arrow.PrimitiveTypes.Float64,
		"dec", &arrow.Decimal128Type{Precision: 10, Scale: 2}, "d", arrow.FixedWidthTypes.Date32,
		"t", arrow.FixedWidthTypes.Time32ms, "ts", tsType, "ltz", ltzType)
	input := "héllo,true,-128,32767,-2147483648,9223372036854775807,1.5,30,123.456,2024-02-29,23:59:59.999,2024-01-02 03:04:05.678,2024-01-02T03:04:05Z\n" +
		"x, FALSE ,127,-32768,2147483647,-9223372036854775808,-0.25,1e22,-0.005,1969-12-31,00:00,1969-12-31 23:59:59.999,1970-01-01 00:00:00\n"
	d := NewCSVDecoder(strings.NewReader(input), "in.csv", schema, CSVOptions{}, mem, 10)
	rec, err := d.Next()
	require.NoError(t, err)
	defer rec.Release()
	require.EqualValues(t, 2, rec.NumRows())
	require.Equal(t, "héllo", rec.Column(0).(*array.String).Value(0))
	require.Equal(t, []bool{true, false}, []bool{rec.Column(1).(*array.Boolean).Value(0), rec.Column(1).(*array.Boolean).Value(1)})
	require.Equal(t, []int8{-128, 127}, rec.Column(2).(*array.Int8).Int8Values())
	require.Equal(t, []int16{32767, -32768}, rec.Column(3).(*array.Int16).Int16Values())
	require.Equal(t, []int32{-2147483648, 2147483647}, rec.Column(4).(*array.Int32).Int32Values())
	require.Equal(t, []int64{9223372036854775807, -9223372036854775808}, rec.Column(5).(*array.Int64).Int64Values())
	require.Equal(t, []float32{1.5, -0.25}, rec.Column(6).(*array.Float32).Float32Values())
	require.Equal(t, []float64{30, 1e22}, rec.Column(7).(*array.Float64).Float64Values())
	dec := rec.Column(8).(*array.Decimal128)
	require.Equal(t, "123.46", dec.Value(0).ToString(2)) // half up
	require.Equal(t, "-0.01", dec.Value(1).ToString(2))
	require.Equal(t, []arrow.Date32{19782, -1}, rec.Column(9).(*array.Date32).Date32Values())
	require.Equal(t, []arrow.Time32{86399999, 0}, rec.Column(10).(*array.Time32).Time32Values())
	require.Equal(t, []arrow.Timestamp{1704164645678, -1}, rec.Column(11).(*array.Timestamp).TimestampValues())
	require.Equal(t, []arrow.Timestamp{1704164645000, 0}, rec.Column(12).(*array.Timestamp).TimestampValues())
	require.Equal(t, 0, rec.Column(0).NullN())
	_, err = d.Next()
	require.Equal(t, io.EOF, err)
	_, err = d.Next()
	require.Equal(t, io.EOF, err)
	require.EqualValues(t, 2, d.Lines())
}

func TestCSVDecoderTimestamps(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		err  string
	}{
		{"1970-01-01 00:00:00", 0, ""},
		{"1969-12-31 23:59:59.999", -1, ""},
		{"1969-12-31 23:59:59.9999999", -1, ""}, // truncated, not rounded
		{"1900-01-01 00:00:00", -2208988800000, ""},
		{"0001-01-01 00:00:00", -62135596800000, ""},
		{"9999-12-31 23:59:59.999", 253402300799999, ""},
		{"2024-02-29 12:00:00.5", 1709208000500, ""},
		{"2000-02-29T00:00", 951782400000, ""},
		{"2023-02-29 00:00:00", 0, "day 29 out of range for 2023-02"},
		{"1900-02-29 00:00:00", 0, "day 29 out of range for 1900-02"},
		{"2023-04-31 00:00:00", 0, "day 31 out of range for 2023-04"},
		{"2023-13-01 00:00:00", 0, "month 13 out of range"},
		{"2023-00-01 00:00:00", 0, "month 0 out of range"},
		{"2023-01-01 24:00:00", 0, "time 24:00:00 out of range"},
		{"2023-01-01 23:60:00", 0, "time 23:60:00 out of range"},
		{"2023-01-01 23:00:60", 0, "time 23:00:60 out of range"},
		{"2023-01-01", 0, "expected yyyy-MM-dd HH:mm:ss[.SSS]"},
		{"2023-01-01 00:00:00.", 0, "expected yyyy-MM-dd HH:mm:ss[.SSS]"},
		{"2023-01-01 00:00:00.1234567890", 0, "expected yyyy-MM-dd HH:mm:ss[.SSS]"},
		{"2023-1-01 00:00:00", 0, "expected yyyy-MM-dd HH:mm:ss[.SSS]"},
		{"2023-01-01 00:00:00Z", 0, "expected yyyy-MM-dd HH:mm:ss[.SSS]"}, // Z only for TIMESTAMP_LTZ
		{"abc", 0, "expected yyyy-MM-dd HH:mm:ss[.SSS]"},
	}
	for _, c := range cases {
		v, msg := scalartext.ParseTimestamp([]byte(c.in), false, arrow.Millisecond)
		require.Equal(t, c.err, msg, c.in)
		if c.err == "" {
			require.Equal(t, c.want, v, c.in)
		}
	}
	v, msg := scalartext.ParseTimestamp([]byte("1969-12-31 23:59:59.123456789Z"), true, arrow.Nanosecond)
	require.Empty(t, msg)
	require.Equal(t, int64(-876543211), v)
	v, msg = scalartext.ParseTimestamp([]byte("1969-12-31 23:59:59.123456789"), true, arrow.Microsecond)
	require.Empty(t, msg)
	require.Equal(t, int64(-876544), v)
	_, msg = scalartext.ParseTimestamp([]byte("2300-01-01 00:00:00"), false, arrow.Nanosecond)
	require.Equal(t, "value out of range for nanosecond precision", msg)
}

func TestCSVDecoderDates(t *testing.T) {
	schema := csvSchema("d", arrow.FixedWidthTypes.Date32)
	rows, err := decodeString(t, "2024-02-29\n1969-12-31\n0001-01-01\n", schema, CSVOptions{})
	require.NoError(t, err)
	require.Equal(t, [][]string{{"2024-02-29"}, {"1969-12-31"}, {"0001-01-01"}}, rows)
	_, err = decodeString(t, "2023-02-29\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:1:1 (column d): cannot parse "2023-02-29" as DATE: day 29 out of range for 2023-02`)
	_, err = decodeString(t, "2023-02-01 00:00\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:1:1 (column d): cannot parse "2023-02-01 00:00" as DATE: expected yyyy-MM-dd`)
}

func TestCSVDecoderDecimal(t *testing.T) {
	cases := []struct {
		in         string
		prec, scal int32
		want, err  string
	}{
		{"1.005", 5, 2, "1.01", ""},
		{"-1.005", 5, 2, "-1.01", ""},
		{"1.004", 5, 2, "1.00", ""},
		{"+7", 5, 2, "7.00", ""},
		{"0.5", 3, 0, "1", ""},
		{"0.05", 3, 0, "0", ""},
		{"000123.4500", 7, 3, "123.450", ""},
		{".5", 3, 1, "0.5", ""},
		{"5.", 3, 1, "5.0", ""},
		{"1.5e2", 5, 1, "150.0", ""},
		{"15E-3", 5, 3, "0.015", ""},
		{"99999999999999999999999999999999999999", 38, 0, "99999999999999999999999999999999999999", ""},
		{"-12345678901234567890.123456789", 38, 9, "-12345678901234567890.123456789", ""},
		{"999.995", 5, 2, "", "value out of range for precision 5"},
		{"1000", 5, 2, "", "value out of range for precision 5"},
		{"1e40", 38, 0, "", "value out of range for precision 38"},
		{"1.2.3", 5, 2, "", "invalid decimal"},
		{"abc", 5, 2, "", "invalid decimal"},
		{"-", 5, 2, "", "invalid decimal"},
		{"1e", 5, 2, "", "invalid decimal"},
	}
	var scratch []byte
	for _, c := range cases {
		n, msg := scalartext.ParseDecimal([]byte(c.in), c.prec, c.scal, &scratch)
		require.Equal(t, c.err, msg, c.in)
		if c.err == "" {
			require.Equal(t, c.want, n.ToString(c.scal), c.in)
		}
	}
}

func TestCSVDecoderQuoting(t *testing.T) {
	schema := csvSchema("a", arrow.BinaryTypes.String, "n", arrow.PrimitiveTypes.Int64, "c", arrow.BinaryTypes.String)
	input := "\"x,y\",1,\"say \"\"hi\"\"\"\n" +
		"\"multi\nline\",2,\"\"\"\"\r\n" +
		"plain, 3 ,\"a\"\"\"\"b\"\n" +
		"\"\",\"4\",\n" +
		"last,5,no newline"
	rows, err := decodeString(t, input, schema, CSVOptions{})
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"x,y", "1", `say "hi"`},
		{"multi\nline", "2", `"`},
		{"plain", "3", `a""b`},
		{"", "4", "NULL"},
		{"last", "5", "no newline"},
	}, rows)

	// A record spanning lines: the error names the line it starts on and later lines stay right.
	_, err = decodeString(t, "\"a\nb\",1,x\nok,zz,y\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:3:2 (column n): cannot parse "zz" as BIGINT: invalid integer`)

	_, err = decodeString(t, "a,1,x\n\"open,2,y\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:2:1 (column a): unterminated quoted field`)
	_, err = decodeString(t, "\"a\"b,1,x\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:1:1 (column a): unexpected text after closing quote`)
}

func TestCSVDecoderDelimiters(t *testing.T) {
	schema := csvSchema("a", arrow.BinaryTypes.String, "b", arrow.PrimitiveTypes.Float64)
	for _, delim := range []byte{';', '|', '\t'} {
		input := fmt.Sprintf("x%c1.5\n'y%cz'%c2\n", delim, delim, delim)
		rows, err := decodeString(t, input, schema, CSVOptions{FieldDelimiter: delim, QuoteChar: '\''})
		require.NoError(t, err)
		require.Equal(t, [][]string{{"x", "1.5"}, {fmt.Sprintf("y%cz", delim), "2.0"}}, rows)
	}
}

func TestCSVDecoderHeaderCommentsBlankLines(t *testing.T) {
	schema := csvSchema("a", arrow.BinaryTypes.String, "b", arrow.PrimitiveTypes.Int32)
	input := "a,\"b\nstill header\"\r\n# a comment, with \"quote\n\nx,1\r\n\r\n#another\ny,2"
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := NewCSVDecoder(strings.NewReader(input), "in.csv", schema, CSVOptions{IgnoreFirstLine: true, AllowComments: true}, mem, 0)
	rows, err := decodeAll(t, d)
	require.NoError(t, err)
	require.Equal(t, [][]string{{"x", "1"}, {"y", "2"}}, rows)
	require.EqualValues(t, 8, d.Lines())

	// Without AllowComments a '#' line is data (and here a bad row).
	_, err = decodeString(t, "# c\nx,1\n", schema, CSVOptions{})
	require.EqualError(t, err, `in.csv:1:2 (column b): expected 2 fields, found 1`)
}

func TestCSVDecoderNulls(t *testing.T) {
	schema := csvSchema("s", arrow.BinaryTypes.String, "i", arrow.PrimitiveTypes.Int32,
		"ts", tsType, "b", arrow.FixedWidthTypes.Boolean, "dec", &arrow.Decimal128Type{Precision: 5, Scale: 1})
	input := ",,,,\n\"\",\"\", ,\"\",\nnull,null,null,null,null\n\"null\",1,2024-01-01 00:00:00,true,1.5\n"

	rows, err := decodeString(t, input, schema, CSVOptions{})
	require.Error(t, err) // "null" is no INT without a null literal
	require.Equal(t, [][]string{{"NULL", "NULL", "NULL", "NULL", "NULL"}, {"", "NULL", "NULL", "NULL", "NULL"}}, rows)

	rows, err = decodeString(t, input, schema, CSVOptions{NullLiteral: "null"})
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"", "NULL", "NULL", "NULL", "NULL"},
		{"", "NULL", "NULL", "NULL", "NULL"},
		{"NULL", "NULL", "NULL", "NULL", "NULL"},
		{"null", "1", "2024-01-01 00:00:00.000", "true", "1.5"},
	}, rows)
}

func TestCSVDecoderBadRows(t *testing.T) {
	schema := csvSchema("ts", tsType, "usr", arrow.PrimitiveTypes.Float64, "s", arrow.BinaryTypes.String)
	input := "2024-01-01 00:00:00,1,a\n" +
		"2024-01-01 00:00:01,2,b\n" +
		"2024-01-01 00:00:02,abc,c\n" +
		"2024-01-01 00:00:03,4\n" +
		"2024-01-01 00:00:04,5,d,extra\n" +
		"2024-01-01 00:00:05,6,\xff\xfe\n" +
		"2024-13-01 00:00:06,7,e\n" +
		"2024-01-01 00:00:07,8,f\n"

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := NewCSVDecoder(strings.NewReader(input), "clicks.csv", schema, CSVOptions{}, mem, 100)
	rec, err := d.Next()
	require.NoError(t, err, "rows before the bad one come first")
	require.EqualValues(t, 2, rec.NumRows())
	rec.Release()
	_, err = d.Next()
	require.EqualError(t, err, `clicks.csv:3:2 (column usr): cannot parse "abc" as DOUBLE: invalid number`)
	require.ErrorIs(t, err, ErrBadRow)
	var perr *ParseError
	require.ErrorAs(t, err, &perr)
	require.Equal(t, ParseError{Source: "clicks.csv", Line: 3, Column: 2, Field: "usr", Value: "abc", Type: "DOUBLE", Msg: "invalid number"}, *perr)
	_, err2 := d.Next()
	require.Equal(t, err, err2, "the error is sticky")

	var raws, msgs []string
	for _, bs := range []int{1, 2, 3, 4096} {
		raws, msgs = nil, nil
		d := NewCSVDecoder(strings.NewReader(input), "clicks.csv", schema, CSVOptions{
			IgnoreParseErrors: true,
			OnBadRow: func(err *ParseError, raw []byte) {
				raws = append(raws, string(raw))
				msgs = append(msgs, err.Error())
			},
		}, mem, bs)
		rows, err := decodeAll(t, d)
		require.NoError(t, err)
		require.Equal(t, [][]string{
			{"2024-01-01 00:00:00.000", "1.0", "a"},
			{"2024-01-01 00:00:01.000", "2.0", "b"},
			{"2024-01-01 00:00:07.000", "8.0", "f"},
		}, rows, "batch size %d", bs)
		require.EqualValues(t, 5, d.Skipped())
		require.EqualValues(t, 8, d.Lines())
	}
	require.Equal(t, []string{
		`clicks.csv:3:2 (column usr): cannot parse "abc" as DOUBLE: invalid number`,
		`clicks.csv:4:3 (column s): expected 3 fields, found 2`,
		`clicks.csv:5:4: expected 3 fields, found 4`,
		`clicks.csv:6:3 (column s): cannot parse "\xff\xfe" as STRING: invalid UTF-8`,
		`clicks.csv:7:1 (column ts): cannot parse "2024-13-01 00:00:06" as TIMESTAMP(3): month 13 out of range`,
	}, msgs)
	require.Equal(t, "2024-01-01 00:00:04,5,d,extra", raws[2])
}

// TestCSVDecoderBatchingIsInvisible checks that batch size, buffer size and
// read pattern never change the decoded data.
func TestCSVDecoderBatchingIsInvisible(t *testing.T) {
	schema := csvSchema("ts", tsType, "key", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Float64,
		"d", &arrow.Decimal128Type{Precision: 9, Scale: 3}, "ok", arrow.FixedWidthTypes.Boolean)
	var sb strings.Builder
	for i := range 200 {
		switch i % 7 {
		case 3:
			fmt.Fprintf(&sb, "1969-12-31 23:59:%02d.%03d,\"k,%d\"\"\nx\",,%d.125,false\r\n", i%60, i, i, i)
		case 5:
			fmt.Fprintf(&sb, "bad,k%d,1,1,true\n", i)
		default:
			fmt.Fprintf(&sb, "2024-03-01 10:%02d:%02d.%d,k%d,%g,-%d.5,true\n", i%60, i%60, i%10, i, float64(i)/3, i)
		}
	}
	input := sb.String()
	opts := CSVOptions{IgnoreParseErrors: true}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want, err := decodeAll(t, NewCSVDecoder(strings.NewReader(input), "in", schema, opts, mem, 4096))
	require.NoError(t, err)
	require.Len(t, want, 200-28)
	require.Equal(t, []string{"1969-12-31 23:59:03.003", "k,3\"\nx", "NULL", "3.125", "false"}, want[3])

	readers := map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(input) },
		"onebyte":  func() io.Reader { return iotest.OneByteReader(strings.NewReader(input)) },
		"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(input)) },
		"dataerr":  func() io.Reader { return iotest.DataErrReader(strings.NewReader(input)) },
		"tinybufs": func() io.Reader { return strings.NewReader(input) },
	}
	for name, mk := range readers {
		for _, bs := range []int{1, 3, 4096} {
			d := NewCSVDecoder(mk(), "in", schema, opts, mem, bs)
			if name == "tinybufs" {
				d.buf = make([]byte, 3) // forces refills and growth inside records
			}
			var got [][]string
			for {
				rec, err := d.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				require.LessOrEqual(t, rec.NumRows(), int64(bs))
				got = append(got, recordRows(rec)...)
				rec.Release()
			}
			require.Equal(t, want, got, "%s, batch size %d", name, bs)
			require.EqualValues(t, 28, d.Skipped())
		}
	}
}

func TestCSVDecoderFullBatches(t *testing.T) {
	schema := csvSchema("n", arrow.PrimitiveTypes.Int64)
	input := strings.Repeat("1\n", 10)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := NewCSVDecoder(strings.NewReader(input), "in", schema, CSVOptions{}, mem, 4)
	var sizes []int64
	for {
		rec, err := d.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		sizes = append(sizes, rec.NumRows())
		rec.Release()
	}
	require.Equal(t, []int64{4, 4, 2}, sizes)
}

func TestCSVDecoderMisc(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	d := NewCSVDecoder(strings.NewReader("x\n"), "in", csvSchema("m", arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32)), CSVOptions{}, mem, 0)
	_, err := d.Next()
	require.EqualError(t, err, "in: column m: csv format does not support type map<utf8, int32, items_nullable>")

	boom := errors.New("disk on fire")
	d = NewCSVDecoder(io.MultiReader(strings.NewReader("1\n2\n"), iotest.ErrReader(boom)), "in", csvSchema("n", arrow.PrimitiveTypes.Int32), CSVOptions{}, mem, 0)
	rows, err := decodeAll(t, d)
	require.ErrorIs(t, err, boom)
	require.NotErrorIs(t, err, ErrBadRow)
	require.Equal(t, [][]string{{"1"}, {"2"}}, rows)

	schema := csvSchema("i8", arrow.PrimitiveTypes.Int8, "b", arrow.FixedWidthTypes.Boolean, "t", arrow.FixedWidthTypes.Time32ms)
	for in, msg := range map[string]string{
		"128,true,00:00:00":      `in.csv:1:1 (column i8): cannot parse "128" as TINYINT: value out of range`,
		"1x,true,00:00:00":       `in.csv:1:1 (column i8): cannot parse "1x" as TINYINT: invalid integer`,
		"1,yes,00:00:00":         `in.csv:1:2 (column b): cannot parse "yes" as BOOLEAN: expected true or false`,
		"1,true,25:00:00":        `in.csv:1:3 (column t): cannot parse "25:00:00" as TIME(3): time 25:00:00 out of range`,
		"1,true,1:00:00":         `in.csv:1:3 (column t): cannot parse "1:00:00" as TIME(3): expected HH:mm:ss[.SSS]`,
		"99999999999999999999,,": `in.csv:1:1 (column i8): cannot parse "99999999999999999999" as TINYINT: value out of range`,
	} {
		_, err := decodeString(t, in, schema, CSVOptions{})
		require.EqualError(t, err, msg)
	}
	rows, err = decodeString(t, "-0,True,12:34:56.7\n", schema, CSVOptions{})
	require.NoError(t, err)
	require.Equal(t, [][]string{{"0", "true", "12:34:56.700"}}, rows)

	// Empty input, and input of only a header.
	rows, err = decodeString(t, "", schema, CSVOptions{})
	require.NoError(t, err)
	require.Empty(t, rows)
	rows, err = decodeString(t, "a,b,c", schema, CSVOptions{IgnoreFirstLine: true})
	require.NoError(t, err)
	require.Empty(t, rows)

	// Long values are capped in errors.
	_, err = decodeString(t, strings.Repeat("9", 1000)+",,", schema, CSVOptions{})
	var perr *ParseError
	require.ErrorAs(t, err, &perr)
	require.Len(t, perr.Value, csvMaxValueInError+3)
}

// BenchmarkCSVDecoder decodes rows of (TIMESTAMP(3), STRING, DOUBLE).
func BenchmarkCSVDecoder(b *testing.B) {
	benchmarkCSVDecoding(b, func(input []byte, schema *arrow.Schema, mem memory.Allocator) (Decoder, func()) {
		return NewCSVDecoder(bytes.NewReader(input), "bench", schema, CSVOptions{}, mem, 4096), func() {}
	})
}

// BenchmarkParallelCSVDecoder decodes the same rows in chunks on two
// workers.
func BenchmarkParallelCSVDecoder(b *testing.B) {
	benchmarkCSVDecoding(b, func(input []byte, schema *arrow.Schema, mem memory.Allocator) (Decoder, func()) {
		d := newParallelDecoder(bytes.NewReader(input), "bench", newCSVChunks("bench", schema, CSVOptions{}, mem, 4096), 2, 1<<20, nil)
		return d, d.Close
	})
}

// benchmarkCSVDecoding decodes 100,000 rows of (TIMESTAMP(3), STRING,
// DOUBLE) with the decoders newDecoder makes (done closes one).
func benchmarkCSVDecoding(b *testing.B, newDecoder func(input []byte, schema *arrow.Schema, mem memory.Allocator) (d Decoder, done func())) {
	const rows = 100_000
	var sb strings.Builder
	for i := range rows {
		fmt.Fprintf(&sb, "2024-03-01 %02d:%02d:%02d.%03d,user%d,%d.%d\n", i/3600%24, i/60%60, i%60, i%1000, i%1000, i%977, i%10)
	}
	input := []byte(sb.String())
	schema := csvSchema("ts", tsType, "key", arrow.BinaryTypes.String, "v", arrow.PrimitiveTypes.Float64)
	mem := memory.NewGoAllocator()
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d, done := newDecoder(input, schema, mem)
		n := 0
		for {
			rec, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += int(rec.NumRows())
			rec.Release()
		}
		done()
		if n != rows {
			b.Fatalf("decoded %d rows", n)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestCSVDecoderStreamsFromPipe checks that rows already read are handed out
// before the decoder blocks on a slow stream.
func TestCSVDecoderStreamsFromPipe(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pr, pw := io.Pipe()
	d := NewCSVDecoder(pr, "stdin", csvSchema("n", arrow.PrimitiveTypes.Int32), CSVOptions{}, mem, 4096)
	go func() { _, _ = pw.Write([]byte("1\n2\n3")) }()
	rec, err := d.Next()
	require.NoError(t, err)
	require.Equal(t, [][]string{{"1"}, {"2"}}, recordRows(rec))
	rec.Release()
	go func() {
		_, _ = pw.Write([]byte("4\r\n"))
		_ = pw.Close()
	}()
	rows, err := decodeAll(t, d)
	require.NoError(t, err)
	require.Equal(t, [][]string{{"34"}}, rows)
}

func TestCSVDecoderNotNullColumnRejectsNull(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: tsType, Nullable: false},
		{Name: "usr", Type: arrow.BinaryTypes.String, Nullable: false},
	}, nil)
	_, err := decodeString(t, "2024-01-01 00:00:00,a\n,b\n", schema, CSVOptions{})
	require.ErrorIs(t, err, ErrBadRow)
	require.EqualError(t, err, "in.csv:2:1 (column ts): NULL in NOT NULL column")
	_, err = decodeString(t, "2024-01-01 00:00:00,\n", schema, CSVOptions{})
	require.EqualError(t, err, "in.csv:1:2 (column usr): NULL in NOT NULL column")

	rows, err := decodeString(t, "2024-01-01 00:00:00,a\n,b\n2024-01-01 00:00:01,c\n", schema, CSVOptions{IgnoreParseErrors: true})
	require.NoError(t, err)
	require.Equal(t, [][]string{{"2024-01-01 00:00:00.000", "a"}, {"2024-01-01 00:00:01.000", "c"}}, rows)
}

func TestCSVDecoderInstantsTakeISOOffsets(t *testing.T) {
	schema := csvSchema("ltz", ltzType, "ts", tsType)
	rows, err := decodeString(t, "2024-03-01T09:00:00+08:00,2024-03-01T09:00:00\n2024-03-01 01:00:00.5Z,2024-03-01 01:00:00\n", schema, CSVOptions{})
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"2024-03-01 01:00:00.000", "2024-03-01 09:00:00.000"},
		{"2024-03-01 01:00:00.500", "2024-03-01 01:00:00.000"},
	}, rows)
	// a zone-less TIMESTAMP takes no offset
	_, err = decodeString(t, "2024-03-01T09:00:00+08:00,2024-03-01T09:00:00+08:00\n", schema, CSVOptions{})
	require.ErrorIs(t, err, ErrBadRow)
	require.ErrorContains(t, err, "in.csv:1:2 (column ts)")
}
