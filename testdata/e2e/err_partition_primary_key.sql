-- A filesystem table with a PRIMARY KEY is written as the stream
-- materialised by its key, which has no partitions yet.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE totals (k STRING, g STRING, n BIGINT, PRIMARY KEY (k, g) NOT ENFORCED) PARTITIONED BY (g) WITH (
  'connector' = 'filesystem', 'path' = 'testdata/e2e/partitioned_out/upsert', 'format' = 'csv');
INSERT INTO totals SELECT k, 'all', COUNT(*) FROM events GROUP BY k;
