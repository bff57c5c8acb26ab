-- OVER aggregation with a RANGE frame: the rows of the partition whose
-- time is within the interval before the current row's, bounds included.
-- Rows of one timestamp are peers: each is in the others' frames, and
-- all get the same results.
CREATE TABLE ticks (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/over_ticks.csv', 'format' = 'csv');
SELECT k, ts, v,
  SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS s,
  COUNT(*) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS c,
  MAX(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS hi
FROM ticks;

-- Without a frame, Flink's default: RANGE BETWEEN UNBOUNDED PRECEDING AND
-- CURRENT ROW; and without PARTITION BY, one partition.
SELECT k, ts, v, SUM(v) OVER (ORDER BY ts) AS running, COUNT(*) OVER (ORDER BY ts) AS n
FROM ticks;


EXPLAIN SELECT k, ts, SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS s FROM ticks;
