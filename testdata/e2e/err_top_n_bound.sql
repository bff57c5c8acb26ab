-- A Top-N needs an upper bound on its row number.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) AS rn FROM events) WHERE rn > 1;
