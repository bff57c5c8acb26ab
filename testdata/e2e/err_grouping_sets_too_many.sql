-- A CUBE of n keys has 2^n grouping sets, each a copy of every row: at
-- most 4096 are allowed.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT COUNT(*) AS n FROM events
GROUP BY ROLLUP (k), CUBE (v, w, ts, v + 1, w + 1, v + 2, w + 2, v + 3, w + 3, v + 4, w + 4, v + 5);
