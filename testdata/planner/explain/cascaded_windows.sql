-- Cascaded windows: a window over the rowtime of an inner window.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT TUMBLE_START(rt, INTERVAL '3' MINUTE) AS s, COUNT(*) AS user_minutes, SUM(n) AS clicks
FROM (
  SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, COUNT(*) AS n
  FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)
) GROUP BY TUMBLE(rt, INTERVAL '3' MINUTE);
