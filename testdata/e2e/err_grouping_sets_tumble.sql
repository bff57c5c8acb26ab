-- A group window belongs in GROUP BY outside the grouping sets.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, COUNT(*) AS n FROM events GROUP BY ROLLUP (k, TUMBLE(ts, INTERVAL '5' SECOND));
