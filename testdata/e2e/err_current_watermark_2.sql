-- A BIGINT can be no time attribute: "CURRENT_WATERMARK() must be called
-- with a single rowtime attribute argument, but 'BIGINT' cannot be a time
-- attribute."
CREATE TABLE events (
  ts TIMESTAMP(3), name STRING, v INT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/current_watermark.csv', 'format' = 'csv');
SELECT CURRENT_WATERMARK(v) FROM events;
