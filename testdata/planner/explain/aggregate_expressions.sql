-- Aggregates over expressions and GROUP BY expressions, computed per row
-- before the window.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT usr, SUM(amount * 2) AS doubled, COUNT(DISTINCT CAST(amount AS INT) / 10) AS tens
FROM clicks WHERE amount > 1
GROUP BY usr, TUMBLE(ts, INTERVAL '3' MINUTE);
