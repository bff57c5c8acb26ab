-- Processing-time windows read the engine's clock (a fixed manual clock in
-- these tests): every row lands in the window of "now", which fires at the
-- end of the bounded input instead of being lost.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, pt AS PROCTIME())
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, TUMBLE_START(pt, INTERVAL '1' MINUTE) AS s, COUNT(*) AS n FROM events GROUP BY k, TUMBLE(pt, INTERVAL '1' MINUTE);
