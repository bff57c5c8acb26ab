-- HOP as a group window: panes of gcd(slide, size).
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT usr, HOP_START(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE) AS wstart, COUNT(*) AS n
FROM clicks GROUP BY usr, HOP(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE);
