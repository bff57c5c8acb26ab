package nexmarkcheck

import (
	"database/sql"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/stretchr/testify/require"
)

// reference is a query file's counterpart in reference/: its batch
// meaning in DuckDB SQL, selecting the sink's columns in order, and what
// its `-- check:` lines say.
type reference struct {
	sql string
	// eventTime: the query's result depends on the watermark (windows,
	// time-bounded joins), so it is comparable only when no event arrives
	// behind the watermark, the only case where a stream drops nothing.
	eventTime bool
	// notComparable says why the golden cannot be checked against a batch
	// result; its SQL, if any, still runs.
	notComparable string
}

func readReference(t *testing.T, path string) reference {
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	r := reference{sql: string(text)}
	for _, line := range strings.Split(r.sql, "\n") {
		directive, ok := strings.CutPrefix(line, "-- check: ")
		switch {
		case !ok:
		case directive == "event time":
			r.eventTime = true
		case strings.HasPrefix(directive, "not comparable: "):
			r.notComparable = strings.TrimPrefix(directive, "not comparable: ")
		default:
			t.Fatalf("%s: unknown directive %q", path, line)
		}
	}
	return r
}

// hasQuery is false for a reference that only explains why there is none.
func (r reference) hasQuery() bool {
	for _, line := range strings.Split(r.sql, "\n") {
		if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, "--") {
			return true
		}
	}
	return false
}

// openDuckDB loads the exported events into an in-memory DuckDB as the
// table datagen (with seq, the arrival order) and runs reference/setup.sql:
// the views person, auction and bid as ddl.sql declares them.
func openDuckDB(t *testing.T, events string) *sql.DB {
	db, err := sql.Open("duckdb", "")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	// one connection: the tables live in the in-memory database of a connection
	db.SetMaxOpenConns(1)
	_, err = db.Exec(`CREATE TABLE datagen AS
SELECT event_type, person, auction, bid, file_row_number AS seq
FROM read_parquet('` + strings.ReplaceAll(events, "'", "''") + `', file_row_number = true)`)
	require.NoError(t, err)
	setup, err := os.ReadFile("reference/setup.sql")
	require.NoError(t, err)
	_, err = db.Exec(string(setup))
	require.NoError(t, err, "reference/setup.sql")
	return db
}

// queryRows runs a reference query and returns its rows as the print
// sink writes them: each value's text, joined by ", ".
func queryRows(db *sql.DB, query string) (multiset, error) {
	rows, err := db.Query(query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	values := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range values {
		ptrs[i] = &values[i]
	}
	out := multiset{}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		b.Reset()
		for i, v := range values {
			if i > 0 {
				b.WriteString(", ")
			}
			text, err := valueText(v)
			if err != nil {
				return nil, fmt.Errorf("column %d (%s): %w", i+1, cols[i].Name(), err)
			}
			b.WriteString(text)
		}
		out[b.String()]++
	}
	return out, rows.Err()
}

// valueText is a DuckDB value as Flink's print connector writes it: NULL
// as null, TIMESTAMP(3) with three fraction digits, a DECIMAL with its
// scale's digits. A reference casts anything else (AVG's DOUBLE) to one
// of these types, as the sink's column type says.
func valueText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "null", nil
	case string:
		return v, nil
	case int64, int32, int16, int8, bool:
		return fmt.Sprint(v), nil
	case *big.Int:
		return v.String(), nil
	case time.Time:
		return v.UTC().Format("2006-01-02 15:04:05.000"), nil
	case duckdb.Decimal:
		return decimalText(v.Value, int(v.Scale)), nil
	default:
		return "", fmt.Errorf("no text for a %T: cast it to the sink column's type", v)
	}
}

func decimalText(unscaled *big.Int, scale int) string {
	digits := new(big.Int).Abs(unscaled).String()
	sign := ""
	if unscaled.Sign() < 0 {
		sign = "-"
	}
	if scale == 0 {
		return sign + digits
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
}
