-- INTERSECT and EXCEPT are update streams (rows come and go), as in
-- Flink: an append-only sink refuses them.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE keys_out (k STRING) WITH ('connector' = 'filesystem', 'path' = 'out', 'format' = 'csv');
INSERT INTO keys_out SELECT k FROM events EXCEPT SELECT k FROM events WHERE v > 4;
