CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE sink_out (k STRING, n INT) WITH ('connector' = 'print');
INSERT INTO sink_out SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
