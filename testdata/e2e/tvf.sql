-- The window table-valued function gives the same rows as the group window
-- (the test also checks this against negative_and_late.sql's plan).
CREATE TABLE events (
  ts TIMESTAMP(3),
  k STRING,
  v INT,
  w BIGINT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT k, window_start AS s, window_end AS e, window_time AS rt,
       COUNT(*) AS n, COUNT(v) AS nv, SUM(v) AS sv, SUM(w)
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS))
GROUP BY window_start, window_end, k;

SELECT window_start, COUNT(*) AS n
FROM TABLE(TUMBLE(DATA => TABLE events, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '10' SECOND, OFFSET => INTERVAL '1' SECOND))
GROUP BY window_start, window_end;
