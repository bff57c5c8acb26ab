CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, pt AS PROCTIME())
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(pt, INTERVAL '1' MINUTE);
