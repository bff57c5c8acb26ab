-- OVER aggregation: the input (every column and the aggregates' arguments),
-- the OverAggregate with its window, and the select list over its output.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT usr, ts, SUM(amount) OVER w AS s, COUNT(*) OVER w AS n, MAX(amount * 2) OVER w AS top FROM clicks WHERE amount > 0
WINDOW w AS (PARTITION BY usr ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW);
EXPLAIN SELECT usr, AVG(amount) OVER (PARTITION BY usr ORDER BY ts RANGE BETWEEN INTERVAL '1' MINUTE PRECEDING AND CURRENT ROW) FROM clicks;
EXPLAIN SELECT usr, COUNT(*) OVER (ORDER BY pt) AS arrived FROM clicks;
