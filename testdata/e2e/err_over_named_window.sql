-- OVER w names a window of the WINDOW clause; one that is not there is refused.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, d DECIMAL(10, 2), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, SUM(v) OVER x FROM events WINDOW w AS (PARTITION BY k ORDER BY ts);
