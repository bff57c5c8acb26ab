-- After a window table function the column it windowed by is a plain
-- timestamp; window_time is the time attribute, as in Flink.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE VIEW tumbled AS
SELECT ts, k, window_time FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS));
SELECT * FROM TABLE(TUMBLE(TABLE tumbled, DESCRIPTOR(ts), INTERVAL '10' SECONDS));
