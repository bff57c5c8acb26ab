-- INSERT INTO a print sink: rows as Flink's print connector writes them.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE sink_out (k STRING, wend TIMESTAMP(3), n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'out');
CREATE TABLE nowhere (k STRING, wend TIMESTAMP(3), n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO sink_out SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
INSERT INTO nowhere SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
EXPLAIN INSERT INTO sink_out SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
