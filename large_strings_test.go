package wsql

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A 600,000-character literal compared with a column over batches of 4096
// rows: it used to be copied into every row, 2.4 GB per batch, past
// Arrow's 2 GiB offsets, and the read panicked. Concatenated onto every
// row it is a clear error naming the limit, not a panic.
func TestLargeStringLiteralOverBigBatches(t *testing.T) {
	var data strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&data, "k%d\n", i)
	}
	big := strings.Repeat("x", 600_000)
	run := func(query string) ([]string, error) {
		e, mem := checkedEngine(t, WithBatchSize(4096))
		defer mem.AssertSize(t, 0)
		require.NoError(t, e.CreateReaderTable(context.Background(), "CREATE TABLE t (k STRING) WITH ('format' = 'csv')", strings.NewReader(data.String())))
		rows, err := e.Query(context.Background(), query)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			rec := rows.RecordBatch()
			for i := range int(rec.NumRows()) {
				// a copy: the value is the batch's memory, reused once released
				out = append(out, strings.Clone(rec.Column(0).ValueStr(i)))
			}
		}
		return out, rows.Err()
	}
	got, err := run("SELECT k FROM t WHERE k <> '" + big + "' AND k LIKE 'k999%'")
	require.NoError(t, err)
	require.Equal(t, []string{"k999", "k9990", "k9991", "k9992", "k9993", "k9994", "k9995", "k9996", "k9997", "k9998", "k9999"}, got)

	_, err = run("SELECT CONCAT(k, '" + big + "') FROM t")
	require.ErrorContains(t, err, "the values of CONCAT over a batch of 4096 rows pass 2 GiB, the most string data one column holds")
}
