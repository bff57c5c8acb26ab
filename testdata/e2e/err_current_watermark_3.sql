-- A computed column is computed before the watermark is assigned: its ts
-- is no rowtime attribute yet.
CREATE TABLE events (
  ts TIMESTAMP(3), name STRING, v INT,
  wm AS CURRENT_WATERMARK(ts),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/current_watermark.csv', 'format' = 'csv');
SELECT wm FROM events;
