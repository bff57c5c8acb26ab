-- Every window kind plans and EXPLAINs; HOP's slide larger than its size
-- is allowed with a warning. Running them is the window semantics work.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, pt AS PROCTIME(), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
EXPLAIN SELECT k, HOP_END(ts, INTERVAL '2' MINUTE, INTERVAL '1' MINUTE), COUNT(*)
FROM events GROUP BY k, HOP(ts, INTERVAL '2' MINUTE, INTERVAL '1' MINUTE);
EXPLAIN SELECT k, SESSION_START(ts, INTERVAL '30' SECOND) AS s, SUM(v) AS sv
FROM events GROUP BY k, SESSION(ts, INTERVAL '30' SECOND);
EXPLAIN SELECT window_start, window_end, COUNT(*) AS n
FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY))
GROUP BY window_start, window_end;
EXPLAIN SELECT k, TUMBLE_END(pt, INTERVAL '1' MINUTE) AS e, COUNT(*)
FROM events GROUP BY k, TUMBLE(pt, INTERVAL '1' MINUTE);
SELECT k, COUNT(*) FROM events GROUP BY k, HOP(ts, INTERVAL '2' MINUTE, INTERVAL '1' MINUTE);
