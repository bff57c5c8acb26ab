-- TUMBLE as a window table-valued function: the same plan as the group window.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT window_start, window_end, window_time, usr, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, window_time, usr;
