-- Output columns of one name are made unique as Flink's validator does
-- (Calcite's uniquify): the second `k` is k0, the third k1, names compared
-- ignoring case; a view's columns keep those names.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT *, * FROM events WHERE v > 3;

SELECT k, k, COUNT(*) AS K FROM events GROUP BY k, TUMBLE(ts, INTERVAL '1' HOUR);

CREATE VIEW twice AS SELECT k, v, v FROM events;
DESCRIBE twice;
SELECT v0, k FROM twice WHERE v > 4;
