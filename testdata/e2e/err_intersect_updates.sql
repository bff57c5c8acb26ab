-- INTERSECT and EXCEPT take append-only queries: an update stream is refused.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k FROM events EXCEPT SELECT k FROM (SELECT k, COUNT(*) AS n FROM events GROUP BY k);
