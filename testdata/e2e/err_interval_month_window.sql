-- Flink refuses a window sized in months or years ("Only constant window
-- intervals with millisecond resolution are supported").
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, COUNT(*)
FROM events
GROUP BY k, TUMBLE(ts, INTERVAL '1' MONTH);
