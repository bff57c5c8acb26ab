-- A window over a filtered plain subquery keeps the table's rowtime.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, COUNT(*) AS n
FROM (SELECT ts, usr FROM clicks WHERE usr = 'alice') AS a
GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
