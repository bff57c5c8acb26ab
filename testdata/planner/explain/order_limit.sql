-- ORDER BY a time attribute is Flink's temporal sort; LIMIT sits above it
-- and ends the run once its rows are out.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT * FROM clicks LIMIT 3;
EXPLAIN SELECT ts, usr, amount FROM clicks WHERE amount > 10 ORDER BY ts, usr DESC LIMIT 5;
EXPLAIN SELECT window_time, usr, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, window_time, usr ORDER BY window_time;
