-- CUMULATE as a window table-valued function (it has no group window form).
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT window_start, window_end, usr, COUNT(*) AS n, MAX(amount) AS top
FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE))
GROUP BY window_start, window_end, usr;
