-- A plain streaming SELECT: filter and project row by row, no window.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT ts, usr, amount * 2 AS doubled, usr LIKE 'a%' AS is_a
FROM clicks WHERE amount BETWEEN 40 AND 50 OR usr IN ('nobody');
EXPLAIN SELECT * FROM clicks;
