-- SESSION with a gap computed per row from a column.
CREATE TABLE pings (ts TIMESTAMP(3), k STRING, gap_s INT, WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE)
WITH ('connector' = 'filesystem', 'path' = 'gaps.csv', 'format' = 'csv');
EXPLAIN SELECT k, SESSION_START(ts, INTERVAL '1' SECOND * gap_s) AS s, COUNT(*) AS n
FROM pings GROUP BY k, SESSION(ts, INTERVAL '1' SECOND * gap_s);
