-- Every OVER aggregate of a SELECT must share one window, as in Flink.
-- (over_errors_test.go pins wsql's other refusals of OVER.)
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS s, COUNT(*) OVER (ORDER BY ts) AS c FROM events;
