-- A filesystem table has no metastore: Flink refuses the 'metastore'
-- commit policy for it, and so does wsql.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE by_key (v INT, k STRING) PARTITIONED BY (k) WITH (
  'connector' = 'filesystem', 'path' = 'testdata/e2e/partitioned_out/metastore', 'format' = 'csv',
  'sink.partition-commit.policy.kind' = 'metastore,success-file');
INSERT INTO by_key SELECT v, k FROM events;
