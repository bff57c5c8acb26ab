package wsql

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Flink's csv format reads and writes an ARRAY or ROW of scalars as one
// field of elements separated by 'csv.array-element-delimiter' (';'): CSV
// → query → CSV and JSON, and the CSV written reads back as it was read.
func TestNestedColumnsRoundTripThroughCSV(t *testing.T) {
	const cols = "(ts TIMESTAMP(3), `user` ROW<id INT, country STRING>, tags ARRAY<STRING>, scores ARRAY<INT>"
	out, files := runInDir(t, `
CREATE TABLE clicks `+cols+`, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_rows.csv', 'format' = 'csv');
CREATE TABLE out_csv `+cols+`) WITH ('connector' = 'filesystem', 'path' = 'DIR/out.csv', 'format' = 'csv');
CREATE TABLE out_json `+cols+`) WITH ('connector' = 'filesystem', 'path' = 'DIR/out.json', 'format' = 'json');
CREATE TABLE per_user (u ROW<id INT, country STRING>, n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'DIR/per_user.csv', 'format' = 'csv',
  'csv.array-element-delimiter' = '|');
INSERT INTO out_csv SELECT * FROM clicks;
INSERT INTO out_json SELECT * FROM clicks;
INSERT INTO per_user SELECT `+"`user`"+`, COUNT(*) FROM clicks GROUP BY `+"`user`"+`, TUMBLE(ts, INTERVAL '1' MINUTE);
CREATE TABLE back `+cols+`) WITH ('connector' = 'filesystem', 'path' = 'DIR/out.csv', 'format' = 'csv');
SELECT `+"`user`"+`, tags, scores, scores[2] AS second, `+"`user`"+`.country AS country FROM back;
`)
	require.Equal(t, `2024-03-01 09:00:01.000,1;NL,a;b,1;2
2024-03-01 09:00:02.000,1;NL,x y;z,
2024-03-01 09:00:03.000,,"",3;;4
2024-03-01 09:00:04.000,2;,c,5
2024-03-01 09:01:05.000,1;NL,"q,r",6
`, files["out.csv"])
	require.Equal(t, `{"ts":"2024-03-01 09:00:01.000","user":{"id":1,"country":"NL"},"tags":["a","b"],"scores":[1,2]}
{"ts":"2024-03-01 09:00:02.000","user":{"id":1,"country":"NL"},"tags":["x y","z"],"scores":null}
{"ts":"2024-03-01 09:00:03.000","user":null,"tags":[],"scores":[3,null,4]}
{"ts":"2024-03-01 09:00:04.000","user":{"id":2,"country":null},"tags":["c"],"scores":[5]}
{"ts":"2024-03-01 09:01:05.000","user":{"id":1,"country":"NL"},"tags":["q,r"],"scores":[6]}
`, files["out.json"])
	require.Equal(t, "1|NL,2\n,1\n2|,1\n1|NL,1\n", files["per_user.csv"])
	require.Contains(t, out, `user,tags,scores,second,country
"(1, NL)","[a, b]","[1, 2]",2,NL
"(1, NL)","[x y, z]",,,NL
,[],"[3, null, 4]",,
"(2, null)",[c],[5],,
"(1, NL)","[q,r]",[6],,NL
`)
}
