CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, pt AS PROCTIME(), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, window_start FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(pt), INTERVAL '10' SECOND));
