-- Two group keys, in the order GROUP BY lists them; unnamed columns are EXPR$i.
CREATE TABLE events (
  ts TIMESTAMP(3),
  k STRING,
  v INT,
  w BIGINT,
  WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT v, k, COUNT(*), TUMBLE_END(ts, INTERVAL '1' HOUR)
FROM events
GROUP BY k, v, TUMBLE(ts, INTERVAL '1' HOUR);
