-- A UTF-8 byte order mark at the start of a file (as Excel writes one) is
-- skipped: the first row parses.
CREATE TABLE c (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bom.csv', 'format' = 'csv');
SELECT k, SUM(v) AS total FROM c GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
CREATE TABLE j (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bom.jsonl', 'format' = 'json');
SELECT k, SUM(v) AS total FROM j GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
