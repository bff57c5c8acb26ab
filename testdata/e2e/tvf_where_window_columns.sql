-- WHERE on the window columns of a window aggregation (Flink filters
-- (row, window) pairs before aggregating): such a filter keeps or drops
-- whole windows, and runs on the windows' results, as HAVING.
CREATE TABLE events (
  ts TIMESTAMP(3),
  k STRING,
  v INT,
  w BIGINT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT k, COUNT(*) AS n
FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS, INTERVAL '10' SECONDS))
WHERE window_end > TIMESTAMP '1970-01-01 00:00:05' AND v > 1 AND window_start < TIMESTAMP '1970-01-01 00:00:30'
GROUP BY k, window_start, window_end;

SELECT k, window_start, COUNT(*) AS n
FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS, INTERVAL '10' SECONDS))
WHERE v > 1
GROUP BY k, window_start, window_end
HAVING window_end > TIMESTAMP '1970-01-01 00:00:05' AND window_start < TIMESTAMP '1970-01-01 00:00:30';

EXPLAIN SELECT k, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS))
WHERE window_end > TIMESTAMP '1970-01-01 00:00:05' AND v > 1
GROUP BY k, window_start, window_end;
