-- RANK() ranks by its OVER clause's ORDER BY; without one it is refused.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT k, RANK() OVER (PARTITION BY k) AS r FROM events) WHERE r <= 2;
