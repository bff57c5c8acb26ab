-- WHERE before the window, HAVING after it, expressions over keys,
-- window properties and aggregates.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT UPPER(usr) AS who, COUNT(*) * 10 AS n10,
  CASE WHEN SUM(amount) > 150 THEN 'big' ELSE 'small' END AS size
FROM clicks WHERE amount > 10 AND usr <> 'nobody'
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE) HAVING SUM(amount) > 100;
