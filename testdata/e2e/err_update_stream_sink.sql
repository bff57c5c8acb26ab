-- An append-only sink cannot take the update stream of a GROUP BY
-- without a window: Flink's message, naming the node that produces it.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE results (k STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'results.csv', 'format' = 'csv');
INSERT INTO results SELECT k, COUNT(*) FROM events GROUP BY k;
