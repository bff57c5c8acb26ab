-- A view over a window, queried with a filter, and a window over the view.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
CREATE VIEW per_minute AS
SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, SUM(amount) AS total
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN SELECT usr, total FROM per_minute WHERE total > 100;
EXPLAIN SELECT usr, TUMBLE_END(rt, INTERVAL '2' MINUTE) AS e, SUM(total) AS total
FROM per_minute GROUP BY usr, TUMBLE(rt, INTERVAL '2' MINUTE);
