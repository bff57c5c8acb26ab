-- A partition is committed when the checkpoint committing its files
-- completes: a 'sink.partition-commit.delay' is refused at the option.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE by_key (v INT, k STRING) PARTITIONED BY (k) WITH (
  'connector' = 'filesystem', 'path' = 'testdata/e2e/partitioned_out/delay', 'format' = 'csv',
  'sink.partition-commit.delay' = '1 h');
INSERT INTO by_key SELECT v, k FROM events;
