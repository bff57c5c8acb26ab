-- The time extractor serves the 'partition-time' trigger, not supported
-- yet: the option is refused, not silently ignored.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE by_key (v INT, k STRING) PARTITIONED BY (k) WITH (
  'connector' = 'filesystem', 'path' = 'testdata/e2e/partitioned_out/extractor', 'format' = 'csv',
  'partition.time-extractor.timestamp-pattern' = '$k 00:00:00');
INSERT INTO by_key SELECT v, k FROM events;
