-- Cascaded windows: per-user minutes, then a 3-minute window over their
-- rowtime (TUMBLE_ROWTIME stays a time attribute). The inner results reach
-- the outer window before the watermark that produced them, so none is late.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

SELECT TUMBLE_START(rt, INTERVAL '3' MINUTE) AS s, COUNT(*) AS user_minutes, SUM(n) AS clicks, MAX(n) AS busiest
FROM (
  SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, COUNT(*) AS n
  FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)
) GROUP BY TUMBLE(rt, INTERVAL '3' MINUTE);

-- a view over a window, queried with a filter, and a window over a view
CREATE VIEW per_minute AS
SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, SUM(amount) AS total
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
SELECT usr, total FROM per_minute WHERE total > 100;
SELECT usr, TUMBLE_END(rt, INTERVAL '2' MINUTE) AS e, SUM(total) AS total
FROM per_minute GROUP BY usr, TUMBLE(rt, INTERVAL '2' MINUTE);

-- a window over a filtered plain subquery keeps the table's rowtime
SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, COUNT(*) AS n
FROM (SELECT ts, usr FROM clicks WHERE usr = 'alice') AS a
GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);

EXPLAIN SELECT TUMBLE_START(rt, INTERVAL '3' MINUTE) AS s, COUNT(*) AS n
FROM (SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE))
GROUP BY TUMBLE(rt, INTERVAL '3' MINUTE);
