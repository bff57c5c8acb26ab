-- 'scan.watermark.max-future': a row more than 1 h beyond the latest event
-- time its split accepted (the year-2099 typo; 10:30 after 09:01:10) is a
-- bad row: skipped and counted, it never moves the watermark. 10:45 comes
-- after 09:59 was accepted, so it is within the bound.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/max_future.csv', 'format' = 'csv',
      'scan.watermark.max-future' = '1 h');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, COUNT(*) AS n, SUM(v) AS total
FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
-- Without the option the 2099 row closes every window: later rows are late.
CREATE TABLE u (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/max_future.csv', 'format' = 'csv');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, COUNT(*) AS n, SUM(v) AS total
FROM u GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
