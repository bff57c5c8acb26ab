-- OVER aggregation ordered by processing time: rows are processed as they
-- arrive, in arrival order, and emitted at once.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, p AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, v,
  SUM(v) OVER (PARTITION BY k ORDER BY p ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s,
  COUNT(*) OVER (PARTITION BY k ORDER BY p ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c
FROM events;

SELECT k, v, SUM(v) OVER (ORDER BY p) AS running FROM events;

EXPLAIN SELECT k, v, SUM(v) OVER (ORDER BY p) AS running FROM events;
