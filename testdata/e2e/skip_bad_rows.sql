-- With csv.ignore-parse-errors bad rows (a bad INT, a NULL rowtime) are
-- skipped and counted in the summary.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv',
      'csv.ignore-parse-errors' = 'true');
SELECT k, COUNT(*) AS n, SUM(v) AS total FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
