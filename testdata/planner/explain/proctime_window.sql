-- A window over processing time (PROCTIME()).
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, pt AS PROCTIME(), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'events.csv', 'format' = 'csv');
EXPLAIN SELECT k, TUMBLE_END(pt, INTERVAL '1' MINUTE) AS e, COUNT(*) AS n
FROM events GROUP BY k, TUMBLE(pt, INTERVAL '1' MINUTE);
