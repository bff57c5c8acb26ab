-- 'scan.watermark.max-future' is a positive duration.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/max_future.csv', 'format' = 'csv',
      'scan.watermark.max-future' = '0 s');
SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
