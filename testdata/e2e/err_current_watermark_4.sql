-- Nor is it in the WATERMARK expression that assigns it.
CREATE TABLE events (
  ts TIMESTAMP(3), name STRING, v INT,
  WATERMARK FOR ts AS COALESCE(CURRENT_WATERMARK(ts), ts)
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/current_watermark.csv', 'format' = 'csv');
SELECT name FROM events;
