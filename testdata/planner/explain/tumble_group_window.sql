-- TUMBLE as a group window in GROUP BY, with its auxiliary functions.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend,
  TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, COUNT(*) AS n, SUM(amount) AS total
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
