-- Windows before and after the epoch, a NULL in SUM and COUNT(col), a late
-- row and the end-of-input flush of the last windows.
CREATE TABLE events (
  ts TIMESTAMP(3),
  k STRING,
  v INT,
  w BIGINT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT k,
       TUMBLE_START(ts, INTERVAL '5' SECOND) AS s,
       TUMBLE_END(ts, INTERVAL '5' SECOND) AS e,
       TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS rt,
       COUNT(*) AS n, COUNT(v) AS nv, SUM(v) AS sv, SUM(w)
FROM events
GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
