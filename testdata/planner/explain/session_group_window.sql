-- SESSION as a group window: merging windows per key.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT usr, SESSION_START(ts, INTERVAL '30' SECOND) AS s, SESSION_END(ts, INTERVAL '30' SECOND) AS e, SUM(amount) AS total
FROM clicks GROUP BY usr, SESSION(ts, INTERVAL '30' SECOND);
