CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, COUNT(*) AS n
FROM TABLE(SESSION(TABLE events PARTITION BY (k, v), DESCRIPTOR(ts), INTERVAL '3' SECOND))
GROUP BY k, window_start, window_end;
