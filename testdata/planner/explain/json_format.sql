-- A JSON lines source.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.jsonl', 'format' = 'json');
EXPLAIN SELECT usr, MIN(amount) AS lo FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
