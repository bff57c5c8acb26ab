-- OVER aggregation with a ROWS frame: each row's aggregates over itself
-- and the rows before it in its partition, by event time. Rows wait until
-- the watermark passes them, are processed in time order and emitted once
-- (append-only); rows at or behind the watermark on arrival are late,
-- dropped and counted. Several aggregates share one window.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, ts, v,
  SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s,
  COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c,
  MIN(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS lo,
  MAX(w) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS hi,
  AVG(w) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS av
FROM events;

-- The same window named once in a WINDOW clause; ROWS UNBOUNDED PRECEDING
-- keeps every row, so any aggregate runs there.
CREATE TABLE ticks (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/over_ticks.csv', 'format' = 'csv');
SELECT k, ts, v, SUM(v) OVER w AS s, COUNT(v) OVER w AS c, STDDEV_POP(v) OVER w AS sd
FROM ticks
WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);

-- A bounded frame takes each leaving row out again, so every aggregate
-- that retracts runs there: the variance family (Welford's method run
-- backwards, as Flink's, so a float may drift in its last digits), DECIMAL
-- sums, MIN/MAX of strings (each value kept with its count).
SELECT k, ts, v,
  STDDEV_POP(v) OVER w AS sd, SUM(CAST(v AS DECIMAL(10, 2))) OVER w AS ds,
  MAX(k) OVER w AS mk
FROM ticks
WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW);

-- Rows of one timestamp are processed in arrival order by a ROWS frame:
-- each ends its own frame.
SELECT k, ts, v, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s
FROM ticks;

-- Without PARTITION BY, one partition; an expression over the aggregates
-- and a WHERE before them.
SELECT ts, v, v * 100 / SUM(v) OVER (ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS pct
FROM ticks WHERE v < 60;

-- The result keeps the rowtime: a window can follow.
CREATE VIEW pairs AS
  SELECT ts, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM ticks;
SELECT window_start, SUM(s) AS total FROM TABLE(TUMBLE(TABLE pairs, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY window_start, window_end;

EXPLAIN SELECT k, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM ticks;
