package catalog

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql"
)

// TIMESTAMP(p) and TIME(p) take the Arrow unit that holds p digits, and
// print back as declared.
func TestTemporalPrecisions(t *testing.T) {
	cases := []struct {
		decl string
		want arrow.DataType
		text string
	}{
		{"TIMESTAMP(0)", &arrow.TimestampType{Unit: arrow.Second}, "TIMESTAMP(0)"},
		{"TIMESTAMP(2)", &arrow.TimestampType{Unit: arrow.Millisecond}, "TIMESTAMP(2)"},
		{"TIMESTAMP", &arrow.TimestampType{Unit: arrow.Microsecond}, "TIMESTAMP(6)"}, // Flink's default precision
		{"TIMESTAMP_LTZ", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, "TIMESTAMP_LTZ(6)"},
		{"TIMESTAMP(6)", &arrow.TimestampType{Unit: arrow.Microsecond}, "TIMESTAMP(6)"},
		{"TIMESTAMP(9) WITHOUT TIME ZONE", &arrow.TimestampType{Unit: arrow.Nanosecond}, "TIMESTAMP(9)"},
		{"TIMESTAMP_LTZ(9)", &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, "TIMESTAMP_LTZ(9)"},
		{"TIMESTAMP(5) WITH LOCAL TIME ZONE", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, "TIMESTAMP_LTZ(5)"},
		{"TIME", arrow.FixedWidthTypes.Time32s, "TIME(0)"},
		{"TIME(3)", arrow.FixedWidthTypes.Time32ms, "TIME(3)"},
	}
	for _, tc := range cases {
		tbl, err := createTable(t, New(), "CREATE TABLE t (c "+tc.decl+") WITH ('c' = 'v')")
		require.NoError(t, err, tc.decl)
		require.Truef(t, arrow.TypeEqual(tc.want, tbl.Columns[0].Type), "%s: %s", tc.decl, tbl.Columns[0].Type)
		require.Equal(t, tc.text, tbl.Columns[0].SQLType, tc.decl)
	}
	for _, p := range []int{1, 2, 3} {
		_, err := ArrowType(sql.TypeName{Name: "TIMESTAMP", Precision: p, Scale: -1})
		require.NoError(t, err)
	}
}
