-- 'scan.watermark.max-future' needs event time that rows drive.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, p AS PROCTIME())
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/max_future.csv', 'format' = 'csv',
      'scan.watermark.max-future' = '1 h');
SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(p, INTERVAL '1' MINUTE);
