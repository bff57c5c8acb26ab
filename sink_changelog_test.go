package wsql

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An update stream into filesystem sinks that take one: debezium-json
// writes each change (columns in the table's order whatever the INSERT
// lists), an upsert json sink the rows by its key; an append-only query
// into debezium-json writes creates only. The files do not depend on the
// batch size.
func TestFilesystemSinksTakeUpdateStreams(t *testing.T) {
	out, files := runInDir(t, sinkEventsDDL+`
CREATE TABLE changes (n BIGINT, k STRING)
WITH ('connector' = 'filesystem', 'path' = 'DIR/changes.json', 'format' = 'debezium-json');
CREATE TABLE latest (k STRING, n BIGINT, top INT, PRIMARY KEY (k) NOT ENFORCED)
WITH ('connector' = 'filesystem', 'path' = 'DIR/latest.json', 'format' = 'json');
CREATE TABLE rows_out (k STRING, v INT)
WITH ('connector' = 'filesystem', 'path' = 'DIR/rows.json', 'format' = 'debezium-json');
INSERT INTO changes (k, n) SELECT k, COUNT(*) FROM events WHERE w >= 60 GROUP BY k;
INSERT INTO latest SELECT k, COUNT(*), MAX(v) FROM events GROUP BY k;
INSERT INTO rows_out SELECT k, v FROM events WHERE v > 6;
`)
	require.NotContains(t, out, "error")
	require.Equal(t, `{"before":null,"after":{"n":1,"k":"b"},"op":"c"}
{"before":null,"after":{"n":1,"k":"a"},"op":"c"}
{"before":{"n":1,"k":"a"},"after":null,"op":"d"}
{"before":null,"after":{"n":2,"k":"a"},"op":"c"}
{"before":null,"after":{"n":1,"k":"c"},"op":"c"}
`, files["changes.json"])
	require.Equal(t, `{"k":"a","n":5,"top":8}
{"k":"b","n":3,"top":6}
{"k":"c","n":1,"top":9}
`, files["latest.json"])
	require.Equal(t, `{"before":null,"after":{"k":"a","v":7},"op":"c"}
{"before":null,"after":{"k":"a","v":8},"op":"c"}
{"before":null,"after":{"k":"c","v":9},"op":"c"}
`, files["rows.json"])

	// without a key a csv sink stays append-only, as Flink's
	out, _ = runInDir(t, sinkEventsDDL+`
CREATE TABLE plain (k STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'DIR/plain.csv', 'format' = 'csv');
INSERT INTO plain SELECT k, COUNT(*) FROM events GROUP BY k;
`)
	require.Contains(t, out, "doesn't support consuming update changes which is produced by node GroupAggregate")
}
