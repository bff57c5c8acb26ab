-- HOP as a window table-valued function.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT window_start, window_end, SUM(amount) AS total
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE))
GROUP BY window_start, window_end;
