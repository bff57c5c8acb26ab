package wsql

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
)

// ValueText is the text of col[i] exactly as the command line prints it
// in a table: TIMESTAMP(3) as 2024-03-01 09:00:00.000, TIMESTAMP_LTZ(3)
// the same for the instant in loc (Rows.Location), DOUBLE as Java's
// Double.toString (1.0, 1.0E20), DECIMAL with its scale's digits, and NULL as NULL
// (a CSV field leaves NULL empty; every other value reads the same there).
// Arrow's own ValueStr prints timestamps differently (2024-03-01T09:00:00).
func ValueText(col arrow.Array, i int, loc *time.Location) string {
	if col.IsNull(i) {
		return "NULL"
	}
	return string(format.AppendValue(nil, col, i, loc))
}
