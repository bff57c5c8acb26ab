-- GROUPING SETS, ROLLUP and CUBE with a window (Flink's Window
-- Aggregation, "GROUPING SETS"): the window stays outside the sets, and
-- each window emits one row per set and key when it closes. Rows the
-- watermark passed are dropped from every set alike.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '10' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

-- a group window with ROLLUP
SELECT TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, k, GROUPING(k) AS gk, COUNT(*) AS n, SUM(w) AS total
FROM events GROUP BY TUMBLE(ts, INTERVAL '5' SECOND), ROLLUP (k);

-- the window table function form: window_start, window_end outside the sets
SELECT window_start, window_end, k, v, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY window_start, window_end, GROUPING SETS ((k), (v), ());

-- HOP with CUBE and HAVING over GROUPING_ID
SELECT window_start, k, v, GROUPING_ID(k, v) AS g, MAX(w) AS hi
FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end, CUBE (k, v)
HAVING GROUPING_ID(k, v) <> 1;

EXPLAIN SELECT window_start, k, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY window_start, window_end, ROLLUP (k);
