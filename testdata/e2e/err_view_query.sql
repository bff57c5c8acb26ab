CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE VIEW v AS SELECT k, COUNT(*) AS n FROM events GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
SELECT * FROM v;
