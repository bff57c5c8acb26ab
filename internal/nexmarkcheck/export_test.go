package nexmarkcheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// suiteDir is the Nexmark suite: ddl.sql, the query files and their goldens.
const suiteDir = "../../testdata/nexmark"

// exportEvents runs the suite's ddl.sql and writes every event of its
// datagen table (the physical columns: event_type and the person, auction
// and bid ROWs), in the order the connector produces them, to a Parquet
// file with wsql's filesystem sink. DuckDB reads that file: the rows the
// suite's queries read, not a second generator's.
func exportEvents(t *testing.T) string {
	ddl, err := os.ReadFile(filepath.Join(suiteDir, "ddl.sql"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "events.parquet")
	export := `
CREATE TABLE events_export (
    event_type INT,
    person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR,
        city VARCHAR, state VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT,
        reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT,
        category BIGINT, extra VARCHAR>,
    bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
        dateTime TIMESTAMP(3), extra VARCHAR>
) WITH ('connector' = 'filesystem', 'path' = '` + strings.ReplaceAll(path, "'", "''") + `', 'format' = 'parquet');
INSERT INTO events_export SELECT event_type, person, auction, bid FROM datagen;`
	e := wsql.New()
	var summaries []wsql.Summary
	out := wsql.Output{OnSummary: func(s wsql.Summary) { summaries = append(summaries, s) }}
	require.NoError(t, e.Run(context.Background(), string(ddl), out), "ddl.sql")
	require.NoError(t, e.Run(context.Background(), export, out), "export of the events")
	require.Len(t, summaries, 1)
	require.Equal(t, summaries[0].RowsRead, summaries[0].ResultRows, "every event exported: %s", summaries[0].Counts())
	return path
}
