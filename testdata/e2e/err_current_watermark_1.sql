-- CURRENT_WATERMARK's argument is a rowtime attribute, as in Flink:
-- "The argument of CURRENT_WATERMARK() must be a rowtime attribute".
CREATE TABLE events (
  ts TIMESTAMP(3), name STRING, v INT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/current_watermark.csv', 'format' = 'csv');
SELECT CURRENT_WATERMARK(ts + INTERVAL '1' SECOND) FROM events;
