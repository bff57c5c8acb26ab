-- COUNT_WINDOW: tumbling and sliding windows of rows per key.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT usr, COUNT(*) AS n, SUM(amount) AS total FROM clicks GROUP BY usr, COUNT_WINDOW(3);
EXPLAIN SELECT usr, AVG(amount) AS mean FROM clicks GROUP BY usr, COUNT_WINDOW(4, 2);
