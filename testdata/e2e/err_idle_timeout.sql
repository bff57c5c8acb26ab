-- 'scan.watermark.idle-timeout' takes a duration in Flink's syntax.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/splits', 'format' = 'csv',
      'scan.watermark.idle-timeout' = '5 parsecs');
SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
