-- GROUPING's arguments must be expressions of GROUP BY.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, GROUPING(k, w) AS g, COUNT(*) AS n FROM events GROUP BY ROLLUP (k);
