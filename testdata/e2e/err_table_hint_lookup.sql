-- Flink's other hints are refused by name, not ignored.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT /*+ STATE_TTL('t' = '1d') */ k FROM t;
