-- A window Top-N ranks by ROW_NUMBER() only, as Flink's WindowRank.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT *, RANK() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS r FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) WHERE r <= 2;
