-- A malformed row stops the query with its file, line, column and value.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
