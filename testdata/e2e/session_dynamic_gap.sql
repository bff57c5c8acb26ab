-- A session gap computed per row (Flink's dynamic session gap, which Flink
-- SQL lacks): each event says how many seconds of silence end its session.
-- a's rows at 12 s (gap 2) and 13 s (gap 10) share the session [12 s, 23 s).
CREATE TABLE pings (ts TIMESTAMP(3), k STRING, gap_s INT, WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/gaps.csv', 'format' = 'csv');
SELECT k, SESSION_START(ts, INTERVAL '1' SECOND * gap_s) AS s, SESSION_END(ts, INTERVAL '1' SECOND * gap_s) AS e, COUNT(*) AS n
FROM pings GROUP BY k, SESSION(ts, INTERVAL '1' SECOND * gap_s);
EXPLAIN SELECT k, COUNT(*) FROM pings GROUP BY k, SESSION(ts, gap_s * INTERVAL '1' SECOND);
