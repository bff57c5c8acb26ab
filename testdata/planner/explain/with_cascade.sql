-- WITH: the expressions plan like views, so a window over an expression's
-- window rowtime cascades as over a subquery.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN WITH big AS (SELECT ts, usr FROM clicks WHERE amount > 30),
  per_minute (u, rt) AS (SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) FROM big GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE))
SELECT TUMBLE_START(rt, INTERVAL '3' MINUTE) AS s, COUNT(*) AS n FROM per_minute GROUP BY TUMBLE(rt, INTERVAL '3' MINUTE);
