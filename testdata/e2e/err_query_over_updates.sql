-- A window over an update stream is refused: the changes of a GROUP BY
-- without a window carry no time attribute.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE VIEW counts AS SELECT k, COUNT(*) AS n, MAX(ts) AS last_ts FROM events GROUP BY k;
SELECT n, COUNT(*) FROM counts GROUP BY n, TUMBLE(last_ts, INTERVAL '1' MINUTE);
